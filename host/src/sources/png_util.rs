//! PNG loading for sprite sources (sheets and atlas pages): any PNG colour type and bit depth in,
//! [`RgbaImage`] out, with the image size checked before any pixel memory is reserved.

use super::{read_limited, MAX_SOURCE_BYTES};
use crate::error::HostError;
use crate::ir::RgbaImage;
use std::path::Path;

/// The most pixels one PNG may have (2²⁶ = 64 Mi pixels, 256 MiB as RGBA8), checked from the
/// PNG header before decoding.
pub const MAX_PNG_PIXELS: u64 = 1 << 26;

/// Reads and decodes the PNG at `path` (at most [`MAX_SOURCE_BYTES`] bytes, at most
/// [`MAX_PNG_PIXELS`] pixels).
pub fn load_png(path: &Path) -> Result<RgbaImage, HostError> {
    let bytes = read_limited(path, MAX_SOURCE_BYTES)?;
    decode_png(path, &bytes)
}

/// Decodes PNG `bytes` that came from `path` (used in messages): palette, grey and 16-bit images
/// are expanded to 8-bit RGBA (16-bit samples keep their high byte; `tRNS` becomes alpha). An
/// animated PNG gives its default image.
pub fn decode_png(path: &Path, bytes: &[u8]) -> Result<RgbaImage, HostError> {
    let bad = |e: png::DecodingError| HostError::file(path, format!("not a readable PNG: {e}"));
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let (width, height) = decoder.read_header_info().map_err(bad)?.size();
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_PNG_PIXELS {
        return Err(HostError::file(
            path,
            format!("PNG is {width}×{height} pixels, over the {MAX_PNG_PIXELS}-pixel limit"),
        ));
    }
    let mut reader = decoder.read_info().map_err(bad)?;
    let size = reader.output_buffer_size().ok_or_else(|| HostError::file(path, "PNG too large to decode"))?;
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(bad)?;
    let (w, h) = (info.width, info.height);
    let samples = &buf[..info.buffer_size().min(buf.len())];
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        // `EXPAND` turns palettes into RGB(A); reaching this would be a png crate change.
        png::ColorType::Indexed => return Err(HostError::file(path, "indexed PNG was not expanded")),
    };
    if info.bit_depth != png::BitDepth::Eight || info.line_size != w as usize * channels {
        return Err(HostError::file(path, "unexpected PNG sample layout after expansion"));
    }
    let pixels: Vec<[u8; 4]> = samples
        .chunks_exact(channels)
        .map(|p| match *p {
            [g] => [g, g, g, 255],
            [g, a] => [g, g, g, a],
            [r, g, b] => [r, g, b, 255],
            [r, g, b, a] => [r, g, b, a],
            _ => [0; 4],
        })
        .collect();
    if pixels.len() != w as usize * h as usize {
        return Err(HostError::file(path, "PNG image data is incomplete"));
    }
    Ok(RgbaImage { width: w, height: h, pixels })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(
        w: u32,
        h: u32,
        color: png::ColorType,
        depth: png::BitDepth,
        data: &[u8],
        trns: Option<&[u8]>,
    ) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut e = png::Encoder::new(&mut out, w, h);
            e.set_color(color);
            e.set_depth(depth);
            if color == png::ColorType::Indexed {
                e.set_palette(vec![255, 0, 0, 0, 255, 0]);
            }
            if let Some(t) = trns {
                e.set_trns(t.to_vec());
            }
            let mut wr = e.write_header().unwrap();
            wr.write_image_data(data).unwrap();
        }
        out
    }

    fn decode(bytes: &[u8]) -> Result<RgbaImage, HostError> {
        decode_png(Path::new("t.png"), bytes)
    }

    #[test]
    fn expands_every_colour_type_to_rgba8() {
        use png::{BitDepth as D, ColorType as C};
        let rgba = decode(&encode(2, 1, C::Rgba, D::Eight, &[1, 2, 3, 4, 5, 6, 7, 8], None)).unwrap();
        assert_eq!(rgba.pixels, [[1, 2, 3, 4], [5, 6, 7, 8]]);
        let rgb = decode(&encode(1, 1, C::Rgb, D::Eight, &[9, 8, 7], None)).unwrap();
        assert_eq!(rgb.pixels, [[9, 8, 7, 255]]);
        let grey = decode(&encode(2, 1, C::GrayscaleAlpha, D::Eight, &[10, 20, 30, 40], None)).unwrap();
        assert_eq!(grey.pixels, [[10, 10, 10, 20], [30, 30, 30, 40]]);
        // 16-bit: the high byte of each big-endian sample is kept.
        let deep = decode(&encode(1, 1, C::Rgba, D::Sixteen, &[1, 99, 2, 99, 3, 99, 4, 99], None)).unwrap();
        assert_eq!(deep.pixels, [[1, 2, 3, 4]]);
        // Palette with tRNS: index 0 transparent red, index 1 opaque green; 1-bit indices.
        let pal = decode(&encode(2, 1, C::Indexed, D::One, &[0b0100_0000], Some(&[0]))).unwrap();
        assert_eq!(pal.pixels, [[255, 0, 0, 0], [0, 255, 0, 255]]);
        // 2-bit grey is scaled to 8 bits.
        let g2 = decode(&encode(2, 1, C::Grayscale, D::Two, &[0b1101_0000], None)).unwrap();
        assert_eq!(g2.pixels, [[255, 255, 255, 255], [85, 85, 85, 255]]);
    }

    #[test]
    fn refuses_huge_and_broken_pngs_before_allocating() {
        // A valid header claiming 20000×20000 pixels (400 Mi pixels), with no image data.
        let mut bytes = encode(1, 1, png::ColorType::Rgba, png::BitDepth::Eight, &[0; 4], None);
        bytes[16..20].copy_from_slice(&20000u32.to_be_bytes());
        bytes[20..24].copy_from_slice(&20000u32.to_be_bytes());
        let crc = crc32(&bytes[12..29]);
        bytes[29..33].copy_from_slice(&crc.to_be_bytes());
        let e = decode(&bytes).unwrap_err();
        assert!(e.reason.contains("20000×20000") && e.reason.contains("limit"), "{e}");
        let e = decode(b"not a png").unwrap_err();
        assert!(e.to_string().starts_with("t.png: not a readable PNG"), "{e}");
        let good = encode(4, 4, png::ColorType::Rgba, png::BitDepth::Eight, &[7; 64], None);
        // Cut anywhere before the 12-byte IEND chunk, the image data is incomplete.
        for len in 0..good.len() - 12 {
            assert!(decode(&good[..len]).is_err(), "truncated at {len} decoded");
        }
        let e = load_png(Path::new("/nonexistent/x.png")).unwrap_err();
        assert_eq!(e.reason, "no such file");
    }

    fn crc32(data: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in data {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }
}
