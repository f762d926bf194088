// SPDX-License-Identifier: Apache-2.0
//! RocksDB's primitive encodings (`util/coding.h`): fixed-width little-endian integers,
//! LEB128 varints and length-prefixed slices. Encoders append to a `Vec<u8>`; decoding goes
//! through [`Decoder`], which never panics on short or malformed input.

pub fn put_fixed16(dst: &mut Vec<u8>, v: u16) {
    dst.extend_from_slice(&v.to_le_bytes());
}
pub fn put_fixed32(dst: &mut Vec<u8>, v: u32) {
    dst.extend_from_slice(&v.to_le_bytes());
}
pub fn put_fixed64(dst: &mut Vec<u8>, v: u64) {
    dst.extend_from_slice(&v.to_le_bytes());
}

pub fn put_varint32(dst: &mut Vec<u8>, v: u32) {
    put_varint64(dst, u64::from(v));
}

pub fn put_varint64(dst: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        dst.push((v as u8) | 0x80);
        v >>= 7;
    }
    dst.push(v as u8);
}

/// The number of bytes `put_varint64(v)` appends.
pub fn varint_length(mut v: u64) -> usize {
    let mut n = 1;
    while v >= 0x80 {
        v >>= 7;
        n += 1;
    }
    n
}

/// Appends a varint32 length and then `bytes`.
///
/// # Panics
/// If `bytes` is 4 GiB or longer, which no caller produces (the C API bounds sizes first).
pub fn put_length_prefixed(dst: &mut Vec<u8>, bytes: &[u8]) {
    let len = u32::try_from(bytes.len()).expect("slice lengths are expected to fit in 32 bits");
    put_varint32(dst, len);
    dst.extend_from_slice(bytes);
}

pub fn decode_fixed32(b: &[u8]) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[..4]);
    u32::from_le_bytes(a)
}
pub fn decode_fixed64(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    u64::from_le_bytes(a)
}

/// A cursor over encoded bytes. Every getter returns `None` when the input is too short or
/// malformed and then leaves the cursor where it was.
#[derive(Debug, Clone)]
pub struct Decoder<'a> {
    buf: &'a [u8],
}

impl<'a> Decoder<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Decoder { buf }
    }
    /// The bytes not yet consumed.
    pub fn remaining(&self) -> &'a [u8] {
        self.buf
    }
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }
    pub fn len(&self) -> usize {
        self.buf.len()
    }
    pub fn u8(&mut self) -> Option<u8> {
        let (&b, rest) = self.buf.split_first()?;
        self.buf = rest;
        Some(b)
    }
    pub fn fixed16(&mut self) -> Option<u16> {
        let b = self.bytes(2)?;
        Some(u16::from_le_bytes([b[0], b[1]]))
    }
    pub fn fixed32(&mut self) -> Option<u32> {
        self.bytes(4).map(decode_fixed32)
    }
    pub fn fixed64(&mut self) -> Option<u64> {
        self.bytes(8).map(decode_fixed64)
    }
    /// A varint of at most 5 bytes whose value fits 32 bits.
    #[inline]
    pub fn varint32(&mut self) -> Option<u32> {
        let save = self.buf;
        let v = self.varint_max(5)?;
        match u32::try_from(v) {
            Ok(v) => Some(v),
            Err(_) => {
                self.buf = save;
                None
            }
        }
    }
    /// A varint of at most 10 bytes.
    #[inline]
    pub fn varint64(&mut self) -> Option<u64> {
        self.varint_max(10)
    }
    #[inline]
    fn varint_max(&mut self, max_bytes: usize) -> Option<u64> {
        if let Some((&b, rest)) = self.buf.split_first() {
            if b < 0x80 {
                self.buf = rest;
                return Some(u64::from(b));
            }
        }
        let mut result: u64 = 0;
        for (i, &byte) in self.buf.iter().enumerate().take(max_bytes) {
            let shift = 7 * i as u32;
            result |= u64::from(byte & 0x7f).checked_shl(shift).unwrap_or(0);
            if byte & 0x80 == 0 {
                self.buf = &self.buf[i + 1..];
                return Some(result);
            }
        }
        None
    }
    /// Exactly `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.buf.len() < n {
            return None;
        }
        let (head, rest) = self.buf.split_at(n);
        self.buf = rest;
        Some(head)
    }
    /// A varint32 length and that many bytes.
    pub fn length_prefixed(&mut self) -> Option<&'a [u8]> {
        let save = self.buf;
        let n = self.varint32()? as usize;
        match self.bytes(n) {
            Some(b) => Some(b),
            None => {
                self.buf = save;
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_at_edges() {
        for v in [0u64, 1, 127, 128, 16383, 16384, u32::MAX as u64, u64::MAX] {
            let mut buf = Vec::new();
            put_varint64(&mut buf, v);
            assert_eq!(buf.len(), varint_length(v));
            assert_eq!(Decoder::new(&buf).varint64(), Some(v));
        }
    }

    #[test]
    fn varint32_rejects_overlong_and_truncated() {
        assert_eq!(
            Decoder::new(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x01]).varint32(),
            None
        );
        assert_eq!(
            Decoder::new(&[0xff, 0xff, 0xff, 0xff, 0x1f]).varint32(),
            None
        );
        assert_eq!(Decoder::new(&[0x80]).varint32(), None);
        assert_eq!(
            Decoder::new(&[0xff, 0xff, 0xff, 0xff, 0x0f]).varint32(),
            Some(u32::MAX)
        );
    }

    #[test]
    fn length_prefixed_leaves_cursor_on_failure() {
        let mut d = Decoder::new(&[3, b'a', b'b']);
        assert_eq!(d.length_prefixed(), None);
        assert_eq!(d.len(), 3);
    }
}
