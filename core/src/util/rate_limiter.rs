// SPDX-License-Identifier: Apache-2.0
//! A token bucket that paces background writes (RocksDB's `GenericRateLimiter`, simplified).
//!
//! One [`RateLimiter`] may be shared by any number of DBs (the C API's limiter object): all
//! their flush and compaction writes draw from the same bucket, so together they stay under
//! `rate_bytes_per_sec`.
//!
//! The bucket holds at most one refill period's worth of bytes (`rate * refill_period`), the
//! largest burst allowed. A request takes its bytes at once, possibly driving the balance
//! below zero; the caller then sleeps until the balance would be back at zero. Requests are
//! served in arrival order (each one queues behind the debt of the earlier ones), so every
//! writer makes progress. Requests above one burst are split into bursts.
//!
//! Differences from RocksDB: no priorities (`fairness` is recorded only), no auto-tuning (an
//! auto-tuned limiter keeps its configured rate), and a read-only limiter (`mode` reads)
//! paces nothing, because solistore does not route reads through it.

use std::time::{Duration, Instant};

use parking_lot::Mutex;

/// Which I/O a limiter paces (RocksDB's `RateLimiter::Mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateLimiterMode {
    ReadsOnly,
    WritesOnly,
    AllIo,
}

#[derive(Debug)]
struct Bucket {
    /// Bytes that may be taken now; negative while requests wait out their debt.
    available: f64,
    last_refill: Instant,
    total_bytes: u64,
    total_requests: u64,
}

/// A shared write pacer. Thread-safe.
#[derive(Debug)]
pub struct RateLimiter {
    rate_bytes_per_sec: f64,
    burst_bytes: f64,
    fairness: i32,
    mode: RateLimiterMode,
    auto_tuned: bool,
    bucket: Mutex<Bucket>,
}

impl RateLimiter {
    /// A limiter of `rate_bytes_per_sec` (at least 1), refilled every `refill_period_us`
    /// (RocksDB's default 100 ms when 0 or negative).
    pub fn new(
        rate_bytes_per_sec: i64,
        refill_period_us: i64,
        fairness: i32,
        mode: RateLimiterMode,
        auto_tuned: bool,
    ) -> Self {
        let rate = rate_bytes_per_sec.max(1) as f64;
        let period = if refill_period_us > 0 {
            refill_period_us as f64 / 1e6
        } else {
            0.1
        };
        let burst = (rate * period).max(1.0);
        RateLimiter {
            rate_bytes_per_sec: rate,
            burst_bytes: burst,
            fairness,
            mode,
            auto_tuned,
            bucket: Mutex::new(Bucket {
                available: burst,
                last_refill: Instant::now(),
                total_bytes: 0,
                total_requests: 0,
            }),
        }
    }

    /// Whether this limiter paces writes (flush and compaction output).
    pub fn paces_writes(&self) -> bool {
        self.mode != RateLimiterMode::ReadsOnly
    }

    pub fn bytes_per_second(&self) -> i64 {
        self.rate_bytes_per_sec as i64
    }

    /// The largest burst: one refill period's bytes (RocksDB's `GetSingleBurstBytes`).
    pub fn single_burst_bytes(&self) -> u64 {
        self.burst_bytes as u64
    }

    pub fn fairness(&self) -> i32 {
        self.fairness
    }

    pub fn mode(&self) -> RateLimiterMode {
        self.mode
    }

    pub fn auto_tuned(&self) -> bool {
        self.auto_tuned
    }

    /// Bytes granted so far (RocksDB's `GetTotalBytesThrough`).
    pub fn total_bytes_through(&self) -> u64 {
        self.bucket.lock().total_bytes
    }

    /// Requests granted so far (RocksDB's `GetTotalRequests`; a split request counts once
    /// per burst).
    pub fn total_requests(&self) -> u64 {
        self.bucket.lock().total_requests
    }

    /// Blocks until `bytes` may be written.
    pub fn request(&self, bytes: u64) {
        // Whole bytes per chunk, so that a request split into bursts counts exactly `bytes`
        // (fractional bursts truncated to integers lost a byte per split).
        let burst = (self.burst_bytes as u64).max(1);
        let mut left = bytes;
        while left > 0 {
            let whole = left.min(burst);
            left -= whole;
            let chunk = whole as f64;
            let wait = {
                let mut b = self.bucket.lock();
                let now = Instant::now();
                let refill =
                    now.duration_since(b.last_refill).as_secs_f64() * self.rate_bytes_per_sec;
                b.available = (b.available + refill).min(self.burst_bytes);
                b.last_refill = now;
                b.available -= chunk;
                b.total_bytes += whole;
                b.total_requests += 1;
                if b.available < 0.0 {
                    -b.available / self.rate_bytes_per_sec
                } else {
                    0.0
                }
            };
            if wait > 0.0 {
                std::thread::sleep(Duration::from_secs_f64(wait));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_beyond_the_burst_wait() {
        // 1 MB/s with 10 ms periods: a 10 KB burst is free, 200 KB more take about 0.2 s.
        let l = RateLimiter::new(1_000_000, 10_000, 10, RateLimiterMode::WritesOnly, false);
        assert_eq!(l.single_burst_bytes(), 10_000);
        let t = Instant::now();
        l.request(10_000);
        l.request(200_000);
        let secs = t.elapsed().as_secs_f64();
        assert!(secs >= 0.19, "paced too fast: {secs}");
        assert_eq!(l.total_bytes_through(), 210_000);
        assert_eq!(l.total_requests(), 21);
    }

    #[test]
    fn a_request_split_into_fractional_bursts_counts_every_byte() {
        // 2 MiB/s over 100 ms: a burst of 209,715.2 bytes, so a 256 KiB request splits.
        let l = RateLimiter::new(2 << 20, 100_000, 10, RateLimiterMode::WritesOnly, false);
        l.request(256 * 1024);
        l.request(3);
        assert_eq!(l.total_bytes_through(), 256 * 1024 + 3);
        assert_eq!(l.total_requests(), 3);
    }

    #[test]
    fn a_reads_only_limiter_paces_no_writes() {
        let l = RateLimiter::new(1, 0, 10, RateLimiterMode::ReadsOnly, false);
        assert!(!l.paces_writes());
        let w = RateLimiter::new(1, 0, 10, RateLimiterMode::AllIo, false);
        assert!(w.paces_writes());
    }
}
