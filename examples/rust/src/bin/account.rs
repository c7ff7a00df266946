//! The seed account round trip: serialize into a buffer (both formats), verify, read back.
//!
//!     cargo run -p fastwire-examples --bin account
use fastwire_examples::{fbe::proto::Account, seed_account};

fn main() -> Result<(), fastwire::Error> {
    let account = seed_account();
    let mut buf = Vec::new();
    let size = fastwire::serialize(&account, &mut buf)?;
    println!("FBE size: {size}");
    fastwire::verify::<Account>(&buf)?;
    let back: Account = fastwire::deserialize(&buf)?;
    println!("{}", fastwire::to_json(&back));
    buf.clear();
    println!(
        "FBE final size: {}",
        fastwire::serialize_final(&account, &mut buf)?
    );
    let back: Account = fastwire::deserialize_final(&buf)?;
    assert_eq!(fastwire::to_json(&back), fastwire::to_json(&account));
    Ok(())
}
