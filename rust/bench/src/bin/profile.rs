//! A loop over one benchmark row, for profilers (perf, callgrind):
//!     profile versioned/serialize 10000000
use fastwire::Limits;
use fastwire_bench::{gen::proto::Account, seed_account};
use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let row = args.get(1).map(String::as_str).unwrap_or("versioned/serialize");
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10_000_000);
    let account = seed_account();
    let limits = Limits::default();
    let (mut v, mut f) = (Vec::new(), Vec::new());
    fastwire::serialize(&account, &mut v).unwrap();
    fastwire::serialize_final(&account, &mut f).unwrap();
    let mut buf = Vec::with_capacity(1024);
    let mut target = Account::default();
    let t = std::time::Instant::now();
    for _ in 0..n {
        match row {
            "versioned/serialize" => {
                buf.clear();
                black_box(fastwire::serialize(black_box(&account), &mut buf).unwrap());
            }
            "versioned/deserialize" => {
                black_box(fastwire::deserialize_into(black_box(&v), &mut target, &limits).unwrap());
            }
            "versioned/verify" => {
                black_box(fastwire::verify_with::<Account>(black_box(&v), &limits).unwrap());
            }
            "final/serialize" => {
                buf.clear();
                black_box(fastwire::serialize_final(black_box(&account), &mut buf).unwrap());
            }
            "final/deserialize" => {
                black_box(fastwire::deserialize_final_into(black_box(&f), &mut target, &limits).unwrap());
            }
            "final/verify" => {
                black_box(fastwire::verify_final_with::<Account>(black_box(&f), &limits).unwrap());
            }
            _ => panic!("unknown row {row}"),
        }
    }
    println!("{row}: {:.1} ns", t.elapsed().as_nanos() as f64 / n as f64);
}
