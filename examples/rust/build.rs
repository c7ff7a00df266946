// Generates schemas/proto.fbe's Rust module into OUT_DIR (as prost-build does).
fn main() {
    let schema = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/proto.fbe");
    fastwire_build::Config::new()
        .compile(&[schema])
        .expect("fastwire code generation");
}
