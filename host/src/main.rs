//! The `ossicle` command-line tool.

use clap::{Parser, Subcommand, ValueEnum};
use ossicle_format::ScalarEncoding;
use ossicle_host::{inspect, output, render, sources, write, HostError};
use std::path::PathBuf;
use std::process::ExitCode;

/// Build ossicle blobs from artist and tool files, and look inside them.
#[derive(Parser)]
#[command(name = "ossicle", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build one blob from source files.
    Build {
        /// Source files (ossicle test sources, `.json`).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The blob to write (replaced atomically; untouched when the build fails).
        #[arg(short, long)]
        output: PathBuf,
        /// Scalar encoding of the blob.
        #[arg(long, value_enum, default_value_t = Encoding::Q16)]
        scalar: Encoding,
    },
    /// Play a sprite animation of a blob with the kernel and write its frames: an animated GIF (OUT
    /// ends in .gif) or a folder of PNGs 0000.png, 0001.png, ... plus frames.json.
    Render {
        /// The blob.
        blob: PathBuf,
        /// The sprite to render.
        #[arg(long)]
        sprite: String,
        /// The animation (default: the sprite's first).
        #[arg(long)]
        animation: Option<String>,
        /// FILE.gif, or a folder for PNG frames.
        #[arg(long)]
        out: PathBuf,
        /// Background colour RRGGBB (default: transparent).
        #[arg(long)]
        background: Option<String>,
        /// Integer scale, 1 to 16.
        #[arg(long, default_value_t = 1)]
        scale: u8,
    },
    /// Show what a blob holds.
    Inspect {
        /// The blob.
        blob: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Encoding {
    /// IEEE-754 single precision.
    F32,
    /// Q16.16 fixed point.
    Q16,
}

fn run(cli: Cli) -> Result<(), HostError> {
    match cli.command {
        Command::Build { inputs, output, scalar } => {
            let encoding = match scalar {
                Encoding::F32 => ScalarEncoding::F32,
                Encoding::Q16 => ScalarEncoding::Q16_16,
            };
            let project = sources::load_sources(&inputs)?;
            let bytes = write::write_blob(&project, encoding)?;
            output::write_atomically(&output, &bytes)?;
            eprintln!("wrote {} ({} bytes, {} scalars)", output.display(), bytes.len(), encoding.name());
            Ok(())
        }
        Command::Render { blob, sprite, animation, out, background, scale } => {
            let background = match background {
                None => None,
                Some(hex) => Some(render::parse_rgb(&hex).ok_or_else(|| {
                    HostError::file(&blob, format!("--background {hex:?} is not a colour RRGGBB (6 hex digits)"))
                })?),
            };
            if !(1..=16).contains(&scale) {
                return Err(HostError::file(&blob, format!("--scale {scale} is not in 1..=16")));
            }
            let bytes = sources::read_limited(&blob, u64::from(u32::MAX))?;
            let summary = render::render_to(&blob, &bytes, &sprite, animation.as_deref(), &out, &render::RenderOptions { background, scale })?;
            eprintln!("{summary}");
            Ok(())
        }
        Command::Inspect { blob, json } => {
            let bytes = sources::read_limited(&blob, u64::from(u32::MAX))?;
            if json {
                let v = inspect::describe_json(&blob, &bytes)?;
                println!("{}", serde_json::to_string_pretty(&v).map_err(|e| HostError::file(&blob, e.to_string()))?);
            } else {
                print!("{}", inspect::describe_text(&blob, &bytes)?);
            }
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
