fn main() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let schemas =
        ["schemas/protocol.fbe", "schemas/everything.fbe", "schemas/service.fbe", "conformance/schemas/hostile.fbe"];
    let paths: Vec<_> = schemas.iter().map(|s| repo.join(s)).collect();
    fastwire_build::Config::new().compile(&paths).expect("fastwire code generation");
}
