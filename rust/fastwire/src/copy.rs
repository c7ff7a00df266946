//! Copies of short byte strings (names, symbols, currencies: mostly under 17 bytes) inline,
//! with a few overlapping word moves instead of a call to `memcpy`, whose call and size
//! dispatch cost more than the copy for such sizes. Safe code: the lengths are checked
//! (once, where the compiler cannot see them equal already).

/// Copies `s` into `d` (of the same length; a shorter `d` panics, as copy_from_slice).
#[inline(always)]
pub(crate) fn copy_short(d: &mut [u8], s: &[u8]) {
    let n = s.len();
    let d = &mut d[..n];
    if n > 16 {
        d.copy_from_slice(s);
    } else if n >= 8 {
        // two overlapping 8-byte moves cover 8..=16 bytes
        if let (Some(a), Some(b), Some(da)) = (s.first_chunk::<8>(), s.last_chunk::<8>(), d.first_chunk_mut::<8>()) {
            let b = *b;
            *da = *a;
            if let Some(db) = d.last_chunk_mut::<8>() {
                *db = b;
            }
        }
    } else if n >= 4 {
        if let (Some(a), Some(b), Some(da)) = (s.first_chunk::<4>(), s.last_chunk::<4>(), d.first_chunk_mut::<4>()) {
            let b = *b;
            *da = *a;
            if let Some(db) = d.last_chunk_mut::<4>() {
                *db = b;
            }
        }
    } else if n != 0 {
        // 1..=3 bytes: first, middle, last
        let (x, y, z) = (s[0], s[n / 2], s[n - 1]);
        d[0] = x;
        d[n / 2] = y;
        d[n - 1] = z;
    }
}

/// Makes `v` a copy of `s`, reusing its memory: in place when the length is already `s`'s
/// (a value read again from a message like the last one), else cleared and extended.
#[inline(always)]
pub(crate) fn assign(v: &mut Vec<u8>, s: &[u8]) {
    if v.len() == s.len() {
        copy_short(v, s);
    } else {
        v.clear();
        v.extend_from_slice(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_every_length() {
        let src: Vec<u8> = (1..=40).collect();
        for n in 0..=40 {
            let mut d = vec![0u8; n];
            copy_short(&mut d, &src[..n]);
            assert_eq!(d, &src[..n], "length {n}");
            // a longer destination: only its first n bytes change
            let mut d = vec![0xEEu8; n + 3];
            copy_short(&mut d, &src[..n]);
            assert_eq!(&d[..n], &src[..n]);
            assert_eq!(&d[n..], &[0xEE; 3]);
            for have in [0, n / 2, n, n + 5] {
                let mut v = vec![7u8; have];
                assign(&mut v, &src[..n]);
                assert_eq!(v, &src[..n], "assign {n} over {have}");
            }
        }
    }
}
