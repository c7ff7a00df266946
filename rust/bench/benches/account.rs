//! The seed account: serialize, deserialize (into a reused target), verify, in both
//! formats, and JSON write/read. `make bench-rust` prints the medians beside fastwire
//! C++'s figures from the same session.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use fastwire::Limits;
use fastwire_bench::{gen::proto::Account, seed_account};
use std::time::Duration;

fn account(c: &mut Criterion) {
    let account = seed_account();
    let limits = Limits::default();
    let mut buf = Vec::with_capacity(1024);

    let mut versioned = Vec::new();
    fastwire::serialize(&account, &mut versioned).unwrap();
    let mut fin = Vec::new();
    fastwire::serialize_final(&account, &mut fin).unwrap();
    let json = fastwire::to_json(&account);
    let mut target = Account::default();

    c.bench_function("versioned/serialize", |b| {
        b.iter(|| {
            buf.clear();
            fastwire::serialize(black_box(&account), &mut buf).unwrap()
        })
    });
    c.bench_function("versioned/deserialize", |b| {
        b.iter(|| fastwire::deserialize_into(black_box(&versioned), &mut target, &limits).unwrap())
    });
    c.bench_function("versioned/verify", |b| {
        b.iter(|| fastwire::verify_with::<Account>(black_box(&versioned), &limits).unwrap())
    });
    c.bench_function("final/serialize", |b| {
        b.iter(|| {
            buf.clear();
            fastwire::serialize_final(black_box(&account), &mut buf).unwrap()
        })
    });
    c.bench_function("final/deserialize", |b| {
        b.iter(|| fastwire::deserialize_final_into(black_box(&fin), &mut target, &limits).unwrap())
    });
    c.bench_function("final/verify", |b| {
        b.iter(|| fastwire::verify_final_with::<Account>(black_box(&fin), &limits).unwrap())
    });
    let mut text = String::with_capacity(1024);
    c.bench_function("json/write", |b| {
        b.iter(|| {
            text.clear();
            fastwire::write_json(black_box(&account), &mut text);
        })
    });
    c.bench_function("json/read", |b| {
        b.iter(|| fastwire::from_json_into(black_box(json.as_bytes()), &mut target, &limits).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50);
    targets = account
}
criterion_main!(benches);
