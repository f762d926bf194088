// SPDX-License-Identifier: Apache-2.0
//! Block compression as RocksDB frames it (write path: table builder; read path: every
//! compressed block read).
//!
//! ```text
//! Snappy  := raw snappy block (its own varint length header; no RocksDB prefix)
//! LZ4     := uncompressed_len:varint32 lz4_block          (compress_format_version 2, fv >= 2)
//!          | uncompressed_len:fixed32 pad:u32 lz4_block   (format_version < 2, read only)
//! ZSTD    := uncompressed_len:varint32 zstd_frame         (read only; any format version)
//! ```
//!
//! A block is stored compressed only when that saves at least 12.5 %
//! (`compressed < raw - raw/8`), else it is stored with type 0.

use crate::error::{Error, Result};
use crate::util::coding::{put_varint32, Decoder};

/// The compression type byte of a block trailer (`CompressionType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum CompressionType {
    #[default]
    None = 0x00,
    Snappy = 0x01,
    Zlib = 0x02,
    BZip2 = 0x03,
    Lz4 = 0x04,
    Lz4hc = 0x05,
    Xpress = 0x06,
    Zstd = 0x07,
    ZstdNotFinal = 0x40,
}

impl CompressionType {
    pub fn from_u8(b: u8) -> Option<CompressionType> {
        Some(match b {
            0x00 => CompressionType::None,
            0x01 => CompressionType::Snappy,
            0x02 => CompressionType::Zlib,
            0x03 => CompressionType::BZip2,
            0x04 => CompressionType::Lz4,
            0x05 => CompressionType::Lz4hc,
            0x06 => CompressionType::Xpress,
            0x07 => CompressionType::Zstd,
            0x40 => CompressionType::ZstdNotFinal,
            _ => return None,
        })
    }

    /// The `rocksdb.compression` property text (`CompressionTypeToString`).
    pub fn name(self) -> &'static str {
        match self {
            CompressionType::None => "NoCompression",
            CompressionType::Snappy => "Snappy",
            CompressionType::Zlib => "Zlib",
            CompressionType::BZip2 => "BZip2",
            CompressionType::Lz4 => "LZ4",
            CompressionType::Lz4hc => "LZ4HC",
            CompressionType::Xpress => "Xpress",
            CompressionType::Zstd => "ZSTD",
            CompressionType::ZstdNotFinal => "ZSTDNotFinal",
        }
    }

    /// Whether this crate can write the type.
    pub fn can_write(self) -> bool {
        matches!(
            self,
            CompressionType::None | CompressionType::Snappy | CompressionType::Lz4
        )
    }
}

/// Blocks at or above this size are never compressed (`kCompressionSizeLimit`).
const COMPRESSION_SIZE_LIMIT: usize = i32::MAX as usize;

/// RocksDB's `GoodCompressionRatio`: at least 12.5 % saved.
pub fn good_ratio(compressed: usize, raw: usize) -> bool {
    compressed < raw - raw / 8
}

/// Compresses `raw` with `t` and returns what to store and the trailer type byte: the raw bytes
/// and `None` when compression is off, fails, or saves too little. A one-off: a table builder
/// keeps a [`Compressor`] instead.
#[cfg(test)]
pub fn compress_block(raw: &[u8], t: CompressionType) -> (std::borrow::Cow<'_, [u8]>, u8) {
    use std::borrow::Cow;
    let mut c = Compressor::new();
    match c.compress(raw, t) {
        Some(stored) => (Cow::Owned(stored.to_vec()), t as u8),
        None => (Cow::Borrowed(raw), 0),
    }
}

/// Block compression with state kept across blocks (write path: one per table builder).
///
/// Snappy's encoder owns a hash table that it allocates and zeroes when it is built
/// (`snap::raw::Encoder` asks to be reused), and both codecs write into an output buffer of
/// the worst-case size; making both per block was 8 % of a flush's instructions. Here they
/// are made once and reused; the buffer only ever grows.
pub struct Compressor {
    snappy: snap::raw::Encoder,
    /// Output space; its length is the largest worst case met so far (never shrunk, so that
    /// it is zeroed only when it grows).
    out: Vec<u8>,
}

impl Default for Compressor {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Compressor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compressor").finish_non_exhaustive()
    }
}

impl Compressor {
    pub fn new() -> Self {
        Compressor {
            snappy: snap::raw::Encoder::new(),
            out: Vec::new(),
        }
    }

    fn out_of_len(&mut self, n: usize) -> &mut [u8] {
        if self.out.len() < n {
            self.out.resize(n, 0);
        }
        &mut self.out[..n]
    }

    /// The bytes to store for `raw` compressed with `t`, or `None` when `raw` is to be stored
    /// as it is (type 0): compression off or not writable here, a failure, or less than
    /// 12.5 % saved.
    pub fn compress(&mut self, raw: &[u8], t: CompressionType) -> Option<&[u8]> {
        if raw.len() >= COMPRESSION_SIZE_LIMIT {
            return None;
        }
        let n = match t {
            CompressionType::Snappy => {
                let max = snap::raw::max_compress_len(raw.len());
                if max == 0 {
                    return None;
                }
                self.out_of_len(max);
                self.snappy.compress(raw, &mut self.out[..max]).ok()?
            }
            CompressionType::Lz4 => {
                let len = u32::try_from(raw.len()).ok()?;
                let mut prefix = Vec::with_capacity(5);
                put_varint32(&mut prefix, len);
                let max = prefix.len() + lz4_flex::block::get_maximum_output_size(raw.len());
                let out = self.out_of_len(max);
                out[..prefix.len()].copy_from_slice(&prefix);
                prefix.len() + lz4_flex::block::compress_into(raw, &mut out[prefix.len()..]).ok()?
            }
            _ => return None,
        };
        good_ratio(n, raw.len()).then(|| &self.out[..n])
    }
}

/// Largest decompressed size accepted per compressed byte; bounds allocations that a corrupt
/// length field could otherwise make huge. Snappy expands at most ~22x and LZ4 at most ~255x.
const SNAPPY_MAX_RATIO: usize = 32;
const LZ4_MAX_RATIO: usize = 256;

/// A ZSTD frame expands at most about 32768 times: each 128 KiB block can be a 4-byte RLE
/// block.
const ZSTD_MAX_RATIO: usize = 1 << 15;

/// Decompresses a ZSTD block as RocksDB stores it: `varint32(uncompressed length)` and one
/// ZSTD frame (whatever the format version). Decoded by `ruzstd` (pure Rust). A frame that
/// needs a dictionary (`rocksdb.compression_dict`, off by default) is refused.
fn decompress_zstd(data: &[u8]) -> Result<Vec<u8>> {
    let bad =
        || Error::corruption("ZSTD not supported or corrupted ZSTD compressed block contents");
    let mut d = Decoder::new(data);
    let len = d.varint32().ok_or_else(bad)? as usize;
    let body = d.remaining();
    if len > body.len().saturating_mul(ZSTD_MAX_RATIO).saturating_add(64) {
        return Err(bad());
    }
    let mut out = vec![0u8; len];
    let written = ruzstd::decoding::FrameDecoder::new()
        .decode_all(body, &mut out)
        .map_err(|_| bad())?;
    if written != len {
        return Err(bad());
    }
    Ok(out)
}

/// Decompresses a block stored with trailer type `ctype` in a table of `format_version`.
pub fn decompress_block(data: &[u8], ctype: u8, format_version: u32) -> Result<Vec<u8>> {
    let t = CompressionType::from_u8(ctype)
        .ok_or_else(|| Error::corruption(format!("bad block type {ctype}")))?;
    match t {
        CompressionType::None => Ok(data.to_vec()),
        CompressionType::Snappy => {
            let len = snap::raw::decompress_len(data).map_err(|_| {
                Error::corruption(
                    "Snappy not supported or corrupted Snappy compressed block contents",
                )
            })?;
            if len
                > data
                    .len()
                    .saturating_mul(SNAPPY_MAX_RATIO)
                    .saturating_add(64)
            {
                return Err(Error::corruption(
                    "Snappy not supported or corrupted Snappy compressed block contents",
                ));
            }
            snap::raw::Decoder::new().decompress_vec(data).map_err(|_| {
                Error::corruption(
                    "Snappy not supported or corrupted Snappy compressed block contents",
                )
            })
        }
        CompressionType::Lz4 | CompressionType::Lz4hc => {
            let bad = || {
                Error::corruption("LZ4 not supported or corrupted LZ4 compressed block contents")
            };
            let (len, body) = if format_version >= 2 {
                let mut d = Decoder::new(data);
                let len = d.varint32().ok_or_else(bad)? as usize;
                (len, d.remaining())
            } else {
                let mut d = Decoder::new(data);
                let len = d.fixed32().ok_or_else(bad)? as usize;
                d.fixed32().ok_or_else(bad)?;
                (len, d.remaining())
            };
            if len > body.len().saturating_mul(LZ4_MAX_RATIO).saturating_add(64) {
                return Err(bad());
            }
            let out = lz4_flex::block::decompress(body, len).map_err(|_| bad())?;
            if out.len() != len {
                return Err(bad());
            }
            Ok(out)
        }
        CompressionType::Zstd | CompressionType::ZstdNotFinal => decompress_zstd(data),
        other => Err(Error::not_supported(format!(
            "{} compression is not supported by this build",
            other.name()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compressible(n: usize) -> Vec<u8> {
        (0..n).map(|i| b"abcdefgh"[i % 8]).collect()
    }

    #[test]
    fn round_trips_and_framing() {
        let raw = compressible(4000);
        for t in [CompressionType::Snappy, CompressionType::Lz4] {
            let (stored, ctype) = compress_block(&raw, t);
            assert_eq!(ctype, t as u8);
            assert!(stored.len() < raw.len() / 2);
            assert_eq!(decompress_block(&stored, ctype, 5).expect("decodes"), raw);
        }
        let (stored, _) = compress_block(&raw, CompressionType::Lz4);
        // varint32(4000) = a0 1f
        assert_eq!(&stored[..2], &[0xa0, 0x1f]);
        let (stored, _) = compress_block(&raw, CompressionType::Snappy);
        assert_eq!(&stored[..2], &[0xa0, 0x1f], "snappy's own length header");
    }

    /// A frame made by the `zstd` 1.5.4 command line from "abcdefgh" x 500, behind RocksDB's
    /// varint32 length prefix.
    #[test]
    fn zstd_blocks_decode() {
        let frame = [
            0x28, 0xb5, 0x2f, 0xfd, 0x60, 0xa0, 0x0e, 0x7d, 0x00, 0x00, 0x40, 0x61, 0x62, 0x63,
            0x64, 0x65, 0x66, 0x67, 0x68, 0x01, 0x00, 0x95, 0x9f, 0x5f, 0xb8,
        ];
        let raw = compressible(4000);
        let mut block = vec![0xa0, 0x1f]; // varint32(4000)
        block.extend_from_slice(&frame);
        for t in [CompressionType::Zstd, CompressionType::ZstdNotFinal] {
            assert_eq!(decompress_block(&block, t as u8, 5).expect("decodes"), raw);
        }
        // A wrong length prefix, a cut frame and garbage are corruption, never a panic.
        let mut short = vec![0x9f, 0x1f];
        short.extend_from_slice(&frame);
        let mut cut = block.clone();
        cut.truncate(block.len() - 6);
        for bad in [
            short,
            cut,
            vec![0x05, 1, 2, 3, 4, 5],
            vec![0xff, 0xff, 0xff, 0xff, 0x0f],
        ] {
            let err = decompress_block(&bad, 0x07, 5).expect_err("refused");
            assert!(err.is_corruption(), "{err:?}");
        }
        assert!(!CompressionType::Zstd.can_write(), "reading only");
    }

    #[test]
    fn reused_compressor_matches_one_offs() {
        let mut c = Compressor::new();
        for n in [4000usize, 100, 70_000, 10, 4096, 3] {
            let raw = compressible(n);
            // What the codecs give when called afresh, framed as RocksDB frames them.
            let snappy = snap::raw::Encoder::new()
                .compress_vec(&raw)
                .expect("compresses");
            let mut lz4 = Vec::new();
            put_varint32(&mut lz4, n as u32);
            lz4.extend_from_slice(&lz4_flex::block::compress(&raw));
            for (t, fresh) in [
                (CompressionType::Snappy, snappy),
                (CompressionType::Lz4, lz4),
            ] {
                let reused = c.compress(&raw, t);
                assert_eq!(reused.is_some(), good_ratio(fresh.len(), n), "{t:?} {n}");
                if let Some(stored) = reused {
                    assert_eq!(stored, &fresh[..]);
                    assert_eq!(decompress_block(stored, t as u8, 5).expect("decodes"), raw);
                }
            }
        }
    }

    #[test]
    fn incompressible_is_stored_raw() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let raw: Vec<u8> = (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        for t in [CompressionType::Snappy, CompressionType::Lz4] {
            let (stored, ctype) = compress_block(&raw, t);
            assert_eq!(ctype, 0);
            assert_eq!(&*stored, &raw[..]);
        }
    }

    #[test]
    fn ratio_threshold_is_strict() {
        assert!(good_ratio(874, 1000));
        assert!(!good_ratio(875, 1000));
    }

    #[test]
    fn corrupt_inputs_are_errors_not_panics() {
        for bytes in [
            &[0xffu8, 0xff, 0xff, 0xff, 0x0f, 1, 2][..],
            &[0x80][..],
            &[][..],
        ] {
            assert!(decompress_block(bytes, 1, 5).is_err());
            assert!(decompress_block(bytes, 4, 5).is_err());
        }
        assert!(decompress_block(b"x", 7, 5).is_err());
        assert!(decompress_block(b"x", 0x33, 5).is_err());
    }
}
