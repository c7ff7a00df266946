fn main() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    fastwire_build::Config::new().compile(&[repo.join("schemas/proto.fbe")]).expect("fastwire code generation");
}
