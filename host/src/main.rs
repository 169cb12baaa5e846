//! The `ossicle` command-line tool.

use clap::{Parser, Subcommand, ValueEnum};
use ossicle_format::ScalarEncoding;
use ossicle_host::{inspect, output, render, sources, trace, write, HostError};
use std::path::{Path, PathBuf};
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
        /// Source files, each read by the parser its extension (and, for JSON, its content) selects:
        /// EVA skeleton + clip text (.eva), EVAC skeletal clips (.evac), Aseprite files (.aseprite,
        /// .ase), Aseprite JSON exports, TexturePacker JSON sheets and ossicle test sources (.json),
        /// animation sets (.anim.xml), scenes (.xml), Unity AnimationClips (.anim, or type-tree
        /// .json dumps) and folders of numbered PNGs.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The blob to write (replaced atomically; untouched when the build fails).
        #[arg(short, long)]
        output: PathBuf,
        /// Scalar encoding of the blob.
        #[arg(long, value_enum, default_value_t = Encoding::Q16)]
        scalar: Encoding,
        /// Sprite pixel format: the smallest lossless form (auto), the smallest indexed one, or a fixed one.
        #[arg(long, value_enum, default_value_t = Pixels::Auto)]
        pixels: Pixels,
        /// RGB565 byte order auto may choose (the display panel's).
        #[arg(long, value_enum, default_value_t = Endian::Little)]
        endian: Endian,
        /// Row RLE: per frame when smaller (auto), always or never.
        #[arg(long, value_enum, default_value_t = Rle::Auto)]
        rle: Rle,
        /// Transparency of raw frames: a colour key where possible (auto), a key, or a one-bit mask.
        #[arg(long, value_enum, default_value_t = Transparency::Auto)]
        transparency: Transparency,
        /// Alpha at and above which a pixel is opaque (the kernel does not blend).
        #[arg(long, default_value_t = 128)]
        alpha_threshold: u8,
        /// Store skeletal key values as 16-bit quantised values with per-channel ranges (lossy;
        /// default: lossless scalar words).
        #[arg(long)]
        quantize: bool,
        /// The skeleton EVAC clips bind to when the build defines several (default: the only one).
        #[arg(long, value_name = "NAME")]
        skeleton: Option<String>,
        /// Keyframe reduction of skeletal clips: the largest error allowed, in the clip's units
        /// (Mixamo: cm), of a virtual vertex `--reduce-distance` from each bone in model space
        /// (ACL's measure). With `--quantize` the bound holds after quantisation. Default: keep
        /// every key.
        #[arg(long, value_name = "ERROR", allow_negative_numbers = true)]
        reduce: Option<f64>,
        /// The virtual vertices' distance from their bone for `--reduce` (clip units).
        #[arg(long, value_name = "DISTANCE", default_value_t = 3.0, allow_negative_numbers = true)]
        reduce_distance: f64,
        /// Unity clips: resolve binding path hashes against these paths (one per line, below the
        /// Animator: "Hips/Spine"), or an Avatar or AnimatorController type-tree dump with an
        /// m_TOS table, besides the build's skeletons (docs/unity.md).
        #[arg(long, value_name = "FILE")]
        unity_paths: Option<PathBuf>,
    },
    /// Evaluate a skeletal clip with the kernel at given times and print every bone's transform
    /// (JSON: {"clip", "space", "samples": [{"time", "bones": [{"name", "translation", "rotation",
    /// "scale"}]}]}; 2D skeletons give "angle" in degrees instead of "rotation").
    Sample {
        /// The blob.
        blob: PathBuf,
        /// The clip.
        #[arg(long)]
        clip: String,
        /// Times in seconds, comma-separated (a looping clip wraps times past its end, a
        /// non-looping one holds its ends; a Q16.16 blob holds times from −32768 s to just under
        /// 32768 s: 32767.99998).
        #[arg(long, value_name = "T1,T2,…", allow_hyphen_values = true)]
        at: String,
        /// Bone transforms relative to the parent (local) or to the skeleton's root space (model).
        #[arg(long, value_enum, default_value_t = SampleSpace::Local)]
        space: SampleSpace,
        /// Print JSON (the only output format; accepted for scripts that pass it).
        #[arg(long)]
        json: bool,
    },
    /// Write a skeletal clip of a blob as an EVAC file (eve.animation-tracks/1), as the kernel
    /// reads it: one track per animated bone, in skeleton order. 3D clips only.
    ExportEvac {
        /// The blob.
        blob: PathBuf,
        /// The clip to export.
        #[arg(long)]
        clip: String,
        /// The EVAC file to write (replaced atomically; untouched on failure).
        #[arg(short, long)]
        output: PathBuf,
        /// The clip name written in the file (default: the clip's own name).
        #[arg(long)]
        name: Option<String>,
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
    /// Play a sprite animation of a blob in a window (needs a binary built with the `sim` feature).
    ///
    /// The kernel's player plays it in a loop at real time. Keys: space pause/resume, left/right
    /// previous/next animation, R restart, F flip, Escape quit. Build with `cargo build -p ossicle-host
    /// --features sim` (needs SDL2's development files, Debian: libsdl2-dev).
    Sim {
        /// The blob.
        blob: PathBuf,
        /// The sprite to show.
        #[arg(long)]
        sprite: String,
        /// The animation to start with (default: the sprite's first).
        #[arg(long)]
        animation: Option<String>,
        /// Integer scale, 1 to 16.
        #[arg(long, default_value_t = 4)]
        scale: u8,
    },
    /// Pack a folder of numbered PNGs into one atlas: OUT.png plus OUT.json (TexturePacker Hash
    /// format), frames alpha-trimmed with their offsets, 1-pixel extruded edges. Building the JSON
    /// gives the same sprite as building the folder.
    Pack {
        /// The folder of numbered PNGs (frame_0.png, frame_1.png, ...).
        folder: PathBuf,
        /// The atlas to write: OUT.png and OUT.json (a `.png` or `.json` extension is dropped).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Run a script against a blob's scene with the kernel and print one JSON line per step: the
    /// property writes and the events (Animator events, clip ends, state changes, sprite events).
    /// Script format and output: docs/trace.md.
    Trace {
        /// The blob (built from a scene XML file).
        blob: PathBuf,
        /// The script: one command per line (update DT, play A CLIP, set M PARAM V, ...).
        #[arg(long)]
        script: PathBuf,
        /// The scene to run (default: the blob's first).
        #[arg(long)]
        scene: Option<String>,
    },
    /// Print a Unity AnimationClip's decoded curves as JSON, before any conversion (docs/unity.md):
    /// {"clip", "curves": [{"index", "block", "binding": {"path", "path_name", "type_id",
    /// "attribute", "component"}, "keys": [{"time", "value", "in_slope", "out_slope"}]}]}.
    /// Unresolved path hashes are listed on stderr.
    Curves {
        /// A type-tree JSON dump of an AnimationClip (UnityPy read_typetree()) or an editor .anim file.
        source: PathBuf,
        /// Paths to resolve path hashes with: a text file of paths below the Animator, one per line
        /// ("Hips/Spine"), or a type-tree JSON dump holding an m_TOS table (Avatar, AnimatorController).
        #[arg(long, value_name = "FILE", conflicts_with = "skeleton")]
        paths: Option<PathBuf>,
        /// An EVA skeleton whose bone hierarchy paths resolve path hashes.
        #[arg(long, value_name = "EVA")]
        skeleton: Option<PathBuf>,
        /// Print JSON (the only output format; accepted for scripts that pass it).
        #[arg(long)]
        json: bool,
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
enum Pixels {
    Auto,
    Indexed,
    Indexed1,
    Indexed2,
    Indexed4,
    Indexed8,
    Rgb565le,
    Rgb565be,
    Rgb888,
}

#[derive(Clone, Copy, ValueEnum)]
enum Endian {
    Little,
    Big,
}

#[derive(Clone, Copy, ValueEnum)]
enum Rle {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, ValueEnum)]
enum Transparency {
    Auto,
    Key,
    Mask,
}

#[derive(Clone, Copy, ValueEnum)]
enum Encoding {
    /// IEEE-754 single precision.
    F32,
    /// Q16.16 fixed point.
    Q16,
}

/// `ossicle sample --space`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SampleSpace {
    /// Relative to the parent bone.
    Local,
    /// Relative to the skeleton's root space.
    Model,
}

fn run(cli: Cli) -> Result<(), HostError> {
    match cli.command {
        Command::Build {
            inputs,
            output,
            scalar,
            pixels,
            endian,
            rle,
            transparency,
            alpha_threshold,
            quantize,
            skeleton,
            reduce,
            reduce_distance,
            unity_paths,
        } => {
            use ossicle_format::sprite::PixelFormat as F;
            use ossicle_host::pixels::{self as px, FormatChoice};
            let encoding = match scalar {
                Encoding::F32 => ScalarEncoding::F32,
                Encoding::Q16 => ScalarEncoding::Q16_16,
            };
            let format = match pixels {
                Pixels::Auto => FormatChoice::Auto,
                Pixels::Indexed => FormatChoice::Indexed,
                Pixels::Indexed1 => FormatChoice::Fixed(F::Indexed1),
                Pixels::Indexed2 => FormatChoice::Fixed(F::Indexed2),
                Pixels::Indexed4 => FormatChoice::Fixed(F::Indexed4),
                Pixels::Indexed8 => FormatChoice::Fixed(F::Indexed8),
                Pixels::Rgb565le => FormatChoice::Fixed(F::Rgb565Le),
                Pixels::Rgb565be => FormatChoice::Fixed(F::Rgb565Be),
                Pixels::Rgb888 => FormatChoice::Fixed(F::Rgb888),
            };
            let opts = write::WriteOptions {
                encoding,
                pixels: px::PixelOptions {
                    format,
                    endian: match endian {
                        Endian::Little => px::Endian::Little,
                        Endian::Big => px::Endian::Big,
                    },
                    rle: match rle {
                        Rle::Auto => px::RleChoice::Auto,
                        Rle::Always => px::RleChoice::Always,
                        Rle::Never => px::RleChoice::Never,
                    },
                    transparency: match transparency {
                        Transparency::Auto => px::TransparencyChoice::Auto,
                        Transparency::Key => px::TransparencyChoice::Key,
                        Transparency::Mask => px::TransparencyChoice::Mask,
                    },
                    alpha_threshold,
                },
            };
            // The reduction's options are checked before any source is read: an error in them is
            // the option's, not a source file's.
            if let Some(max_error_cm) = reduce {
                if !(max_error_cm.is_finite() && max_error_cm >= 0.0) {
                    return Err(HostError::file("--reduce", format!("{max_error_cm} is not a finite number ≥ 0")));
                }
                if !(reduce_distance.is_finite() && reduce_distance > 0.0) {
                    return Err(HostError::file(
                        "--reduce-distance",
                        format!("{reduce_distance} is not a finite number > 0"),
                    ));
                }
            }
            let read: Vec<&Path> = inputs.iter().map(PathBuf::as_path).chain(unity_paths.as_deref()).collect();
            output::refuse_input_as_output(&output, &read)?;
            let mut project = sources::load_sources_with(&inputs, unity_paths.as_deref())?;
            if let Some(max_error_cm) = reduce {
                reduce_clips(&mut project, skeleton.as_deref(), quantize, max_error_cm, reduce_distance)?;
            }
            let skeletal = write::SkelOptions { quantize, skeleton };
            let (bytes, report) = write::write_blob_skeletal(&project, &opts, &skeletal)?;
            output::write_atomically(&output, &bytes)?;
            for note in &project.notes {
                eprintln!("note: {note}");
            }
            for s in &report.sprites {
                let p = &s.pixels;
                let rle = p.per_frame.iter().filter(|f| f.rle).count();
                let shared = p.per_frame.iter().filter(|f| f.shared_with.is_some()).count();
                eprintln!(
                    "sprite {}: {} frames ({rle} RLE, {shared} shared), {} animations, {} colours, {} + {}: pixels {} flash bytes, section {} bytes",
                    s.name,
                    s.frames,
                    s.animations,
                    p.colours,
                    s.format.name(),
                    s.transparency.name(),
                    p.flash_bytes,
                    s.section_bytes
                );
                if p.partial_alpha_pixels > 0 {
                    eprintln!(
                        "  note: {} pixels had partial alpha and became opaque or transparent at threshold {alpha_threshold}",
                        p.partial_alpha_pixels
                    );
                }
                if p.quantised_colours > 0 {
                    eprintln!("  note: {} colours were rounded to RGB565", p.quantised_colours);
                }
                let cands: Vec<String> = p.candidates.iter().map(|(n, b)| format!("{n} {b}")).collect();
                eprintln!("  considered: {}", cands.join(", "));
            }
            for (name, bytes) in &report.scenes {
                eprintln!("scene {name}: section {bytes} bytes");
            }
            for s in &report.skeletons {
                eprintln!("skeleton {}: {} bones, section {} bytes", s.name, s.bones, s.section_bytes);
            }
            for c in &report.skel_clips {
                let [t, r, sc] = c.max_error;
                eprintln!(
                    "skelclip {} (skeleton {}): {} tracks, {} keys, {} quantised channels, {} rest channels, max error translation {t:.3e} rotation {r:.3e} scale {sc:.3e}, section {} bytes",
                    c.name, c.skeleton, c.tracks, c.keys, c.quantized_channels, c.rest_channels, c.section_bytes
                );
            }
            eprintln!("wrote {} ({} bytes, {} scalars)", output.display(), bytes.len(), encoding.name());
            Ok(())
        }
        Command::Sample { blob, clip, at, space, json: _ } => {
            let times = ossicle_host::sample::parse_times(&at).map_err(|e| HostError::file(&blob, e))?;
            let bytes = sources::read_limited(&blob, u64::from(u32::MAX))?;
            let space = match space {
                SampleSpace::Local => ossicle_host::sample::Space::Local,
                SampleSpace::Model => ossicle_host::sample::Space::Model,
            };
            let doc = ossicle_host::sample::sample_blob(&blob, &bytes, &clip, &times, space)?;
            let text = serde_json::to_string(&doc).map_err(|e| HostError::file(&blob, e.to_string()))?;
            print_out(&[&text, "\n"])
        }
        Command::ExportEvac { blob, clip, output, name } => {
            output::refuse_input_as_output(&output, &[&blob])?;
            let bytes = sources::read_limited(&blob, u64::from(u32::MAX))?;
            let evac = ossicle_host::skeletal::export_evac(&blob, &bytes, &clip, name.as_deref())?;
            output::write_atomically(&output, &evac)?;
            eprintln!("wrote {} ({} bytes, clip {clip})", output.display(), evac.len());
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
            if render::is_gif_path(&out) {
                output::refuse_input_as_output(&out, &[&blob])?;
            } else {
                output::refuse_input_in_output_dir(&out, &[&blob])?;
            }
            let bytes = sources::read_limited(&blob, u64::from(u32::MAX))?;
            let summary = render::render_to(
                &blob,
                &bytes,
                &sprite,
                animation.as_deref(),
                &out,
                &render::RenderOptions { background, scale },
            )?;
            eprintln!("{summary}");
            Ok(())
        }
        Command::Sim { blob, sprite, animation, scale } => sim(blob, sprite, animation, scale),
        Command::Pack { folder, output } => {
            let base = match output.extension().and_then(|e| e.to_str()) {
                Some("png" | "json") => output.with_extension(""),
                _ => output,
            };
            // OUT's own extension, other than .png or .json, is kept: `-o sheet.v2` writes sheet.v2.png.
            let Some(stem) = base.file_name().map(|n| n.to_os_string()) else {
                return Err(HostError::file(&base, "names no file: OUT.png and OUT.json need a name OUT"));
            };
            let with_ext = |ext: &str| {
                let mut name = stem.clone();
                name.push(ext);
                base.with_file_name(name)
            };
            let (png_path, json_path) = (with_ext(".png"), with_ext(".json"));
            let image = png_path.file_name().and_then(|n| n.to_str()).unwrap_or("atlas.png").to_string();
            let frames = ossicle_host::pack::frame_files(&folder)?;
            let read: Vec<&Path> = frames.iter().map(PathBuf::as_path).collect();
            output::refuse_input_as_output(&png_path, &read)?;
            output::refuse_input_as_output(&json_path, &read)?;
            let (png, json) = ossicle_host::pack::pack_folder(&folder, &image)?;
            output::write_files_atomically(&[(&png_path, &png), (&json_path, &json)])?;
            eprintln!("wrote {} and {}", png_path.display(), json_path.display());
            Ok(())
        }
        Command::Trace { blob, script, scene } => {
            let bytes = sources::read_limited(&blob, u64::from(u32::MAX))?;
            let text = sources::read_limited(&script, sources::MAX_SOURCE_BYTES)?;
            let text = String::from_utf8(text).map_err(|e| {
                HostError::file(&script, format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
            })?;
            let mut out = String::new();
            let result = trace::trace(&blob, &bytes, scene.as_deref(), &script, &text, &mut out);
            print_out(&[&out])?;
            result.map(|_| ())
        }
        Command::Curves { source, paths, skeleton, json: _ } => curves(&source, paths.as_deref(), skeleton.as_deref()),
        Command::Inspect { blob, json } => {
            let bytes = sources::read_limited(&blob, u64::from(u32::MAX))?;
            if json {
                let v = inspect::describe_json(&blob, &bytes)?;
                let text = serde_json::to_string_pretty(&v).map_err(|e| HostError::file(&blob, e.to_string()))?;
                print_out(&[&text, "\n"])
            } else {
                print_out(&[&inspect::describe_text(&blob, &bytes)?])
            }
        }
    }
}

/// `ossicle curves`: nothing is printed unless everything reads.
fn curves(source: &Path, paths: Option<&Path>, skeleton: Option<&Path>) -> Result<(), HostError> {
    use ossicle_host::unity;
    let table = match (paths, skeleton) {
        (Some(p), _) => {
            let bytes = sources::read_limited(p, unity::MAX_SOURCE_BYTES)?;
            unity::PathTable::parse(&bytes).map_err(|e| e.into_host(p))?
        }
        (None, Some(s)) => {
            let bytes = sources::read_limited(s, sources::MAX_SOURCE_BYTES)?;
            let project = sources::eva::parse(s, &bytes)?;
            match project.skeletons.first() {
                Some(sk) => unity::PathTable::from_skeleton(sk),
                None => return Err(HostError::file(s, "defines no skeleton")),
            }
        }
        (None, None) => unity::PathTable::default(),
    };
    let bytes = sources::read_limited(source, unity::MAX_SOURCE_BYTES)?;
    let clip = unity::read_source(&bytes).map_err(|e| e.into_host(source))?;
    print_out(&[&unity::output::curves_json(&clip, &table), "\n"])?;
    let unresolved = clip.unresolved(&table);
    if !unresolved.is_empty() {
        let list: Vec<String> = unresolved.iter().map(u32::to_string).collect();
        eprintln!("note: {} unresolved path hashes: {}", unresolved.len(), list.join(", "));
    }
    Ok(())
}

/// `ossicle sim` (feature `sim`): a window.
#[cfg(feature = "sim")]
fn sim(blob: PathBuf, sprite: String, animation: Option<String>, scale: u8) -> Result<(), HostError> {
    let bytes = sources::read_limited(&blob, u64::from(u32::MAX))?;
    ossicle_host::sim::run(&blob, &bytes, &ossicle_host::sim::SimOptions { sprite, animation, scale })
}

/// `ossicle sim` in a binary built without the `sim` feature: says how to get it (the subcommand
/// exists either way, so the CLI is the same in every build).
#[cfg(not(feature = "sim"))]
fn sim(blob: PathBuf, _sprite: String, _animation: Option<String>, _scale: u8) -> Result<(), HostError> {
    Err(HostError::file(
        blob,
        "cannot open a window: this ossicle was built without the `sim` feature; build it with \
         `cargo build -p ossicle-host --features sim` (or `cargo install --path host --features sim`), which \
         needs the SDL2 development files (Debian/Ubuntu: apt-get install libsdl2-dev); `ossicle render` writes \
         the frames to a GIF or PNGs without a window",
    ))
}

/// Writes `parts` to standard output. A reader that stopped reading (`ossicle sample … | head`)
/// ends the output quietly, as it ends `cat`'s, instead of with a panic; any other write error is
/// reported.
fn print_out(parts: &[&str]) -> Result<(), HostError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = parts.iter().try_for_each(|p| out.write_all(p.as_bytes())).and_then(|()| out.flush());
    match written {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => {
            Err(HostError::file("standard output", format!("cannot write: {}", ossicle_host::error::io_reason(&e))))
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

/// `build --reduce`: every skeletal clip reduced against its skeleton, the measured error reported.
fn reduce_clips(
    project: &mut ossicle_host::ir::Project,
    chosen: Option<&str>,
    quantize: bool,
    max_error_cm: f64,
    vertex_distance: f64,
) -> Result<(), HostError> {
    use ossicle_host::reduce;
    let opts = reduce::ReduceOptions { max_error_cm, vertex_distance, ..reduce::ReduceOptions::default() };
    let mut clips = std::mem::take(&mut project.skel_clips);
    let result = clips.iter_mut().try_for_each(|clip| {
        let skel = write::skeleton::skeleton_for(clip, &project.skeletons, chosen)?;
        let before = reduce::key_count(clip);
        let (reduced, stats) =
            if quantize { reduce::reduce_quantized(skel, clip, &opts)? } else { reduce::reduce(skel, clip, &opts)? };
        eprintln!(
            "reduced {}: {before} -> {} keys, error at {vertex_distance} from each bone: max {:.5}, p99 {:.5}, {:.2}% of {} samples within {max_error_cm}",
            clip.name,
            reduce::key_count(&reduced),
            stats.max,
            stats.p99,
            stats.under_threshold_share * 100.0,
            stats.samples
        );
        *clip = reduced;
        Ok::<(), HostError>(())
    });
    project.skel_clips = clips;
    result
}
