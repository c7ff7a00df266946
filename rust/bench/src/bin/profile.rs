//! A loop over one benchmark row, for profilers (perf, callgrind):
//!     profile versioned/serialize 10000000
//! or every row's CPU time per call (this thread's time on a CPU, from
//! /proc/thread-self/schedstat, so other processes' load inflates it far less than wall
//! time), the median of `reps` interleaved runs of `n` calls:
//!     profile cpu [reps] [n]
use fastwire::Limits;
use fastwire_bench::{gen::proto::Account, seed_account};
use std::hint::black_box;

const ROWS: [&str; 6] = [
    "versioned/serialize",
    "versioned/deserialize",
    "versioned/verify",
    "final/serialize",
    "final/deserialize",
    "final/verify",
];

struct Bench {
    account: Account,
    limits: Limits,
    v: Vec<u8>,
    f: Vec<u8>,
    buf: Vec<u8>,
    target: Account,
}

impl Bench {
    fn new() -> Self {
        let account = seed_account();
        let (mut v, mut f) = (Vec::new(), Vec::new());
        fastwire::serialize(&account, &mut v).unwrap();
        fastwire::serialize_final(&account, &mut f).unwrap();
        Bench {
            account,
            limits: Limits::default(),
            v,
            f,
            buf: Vec::with_capacity(1024),
            target: Account::default(),
        }
    }

    /// `n` calls of one row (the row is chosen once, outside the loop).
    fn run(&mut self, row: &str, n: usize) {
        let Bench {
            account,
            limits,
            v,
            f,
            buf,
            target,
        } = self;
        match row {
            "versioned/serialize" => {
                for _ in 0..n {
                    buf.clear();
                    black_box(fastwire::serialize(black_box(&*account), buf).unwrap());
                }
            }
            "versioned/deserialize" => {
                for _ in 0..n {
                    black_box(fastwire::deserialize_into(black_box(&v[..]), target, limits).unwrap());
                }
            }
            "versioned/verify" => {
                for _ in 0..n {
                    black_box(fastwire::verify_with::<Account>(black_box(&v[..]), limits).unwrap());
                }
            }
            "final/serialize" => {
                for _ in 0..n {
                    buf.clear();
                    black_box(fastwire::serialize_final(black_box(&*account), buf).unwrap());
                }
            }
            "final/deserialize" => {
                for _ in 0..n {
                    black_box(fastwire::deserialize_final_into(black_box(&f[..]), target, limits).unwrap());
                }
            }
            "final/verify" => {
                for _ in 0..n {
                    black_box(fastwire::verify_final_with::<Account>(black_box(&f[..]), limits).unwrap());
                }
            }
            _ => panic!("unknown row {row}"),
        }
    }
}

/// This thread's CPU time in nanoseconds.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|x| x.parse().ok()))
        .expect("/proc/thread-self/schedstat (Linux) is needed for CPU time")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let row = args.get(1).map(String::as_str).unwrap_or("versioned/serialize");
    let mut bench = Bench::new();
    if row == "cpu" {
        let reps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(7);
        let n: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2_000_000);
        let mut times = vec![Vec::new(); ROWS.len()];
        for _ in 0..reps {
            for (i, row) in ROWS.iter().enumerate() {
                let t = cpu_ns();
                bench.run(row, n);
                times[i].push((cpu_ns() - t) as f64 / n as f64);
            }
        }
        for (row, mut t) in ROWS.iter().zip(times) {
            t.sort_by(f64::total_cmp);
            println!("{row} {:.1}", t[t.len() / 2]);
        }
        return;
    }
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10_000_000);
    let t = std::time::Instant::now();
    bench.run(row, n);
    println!("{row}: {:.1} ns", t.elapsed().as_nanos() as f64 / n as f64);
}
