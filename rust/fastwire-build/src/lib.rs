//! Generates Rust code from FBE schemas in a `build.rs`, through the fastwire schema
//! compiler (Python 3, standard library only), as `prost-build` does for protobuf.
//!
//! ```ignore
//! // build.rs
//! fn main() {
//!     fastwire_build::Config::new().compile(&["schemas/proto.fbe"]).unwrap();
//! }
//! // src/lib.rs
//! // mod fbe { include!(concat!(env!("OUT_DIR"), "/fastwire.rs")); }
//! // use fbe::proto::Account;
//! ```
//!
//! The compiler is found through `FASTWIRE_COMPILER` (the folder holding the `fastwire`
//! Python package), else next to this crate in the fastwire repository
//! (`<repo>/compiler`); Python through `FASTWIRE_PYTHON`, else `python3`.
#![forbid(unsafe_code)]

use std::env;
use std::fs;
use std::io::{Error, ErrorKind, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What to generate and where.
#[derive(Debug, Clone, Default)]
pub struct Config {
    includes: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    compiler: Option<PathBuf>,
    python: Option<String>,
}

impl Config {
    /// The defaults: output in `$OUT_DIR`.
    pub fn new() -> Self {
        Config::default()
    }
    /// Another folder to look for imported schemas in (`-I`).
    pub fn include(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.includes.push(dir.as_ref().to_path_buf());
        self
    }
    /// Writes to `dir` instead of `$OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }
    /// The folder that holds the compiler's `fastwire` Python package.
    pub fn compiler(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.compiler = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Generates the modules of `schemas` (and the packages they import) into
    /// `<out>/fastwire/`, and `<out>/fastwire.rs`, which declares them: include it with
    /// `include!(concat!(env!("OUT_DIR"), "/fastwire.rs"))` inside a module.
    pub fn compile<P: AsRef<Path>>(&self, schemas: &[P]) -> Result<()> {
        let out = match &self.out_dir {
            Some(d) => d.clone(),
            None => PathBuf::from(env::var_os("OUT_DIR").ok_or_else(|| Error::other("OUT_DIR is not set"))?),
        };
        let gen = out.join("fastwire");
        fs::create_dir_all(&gen)?;
        let compiler = match (&self.compiler, env::var_os("FASTWIRE_COMPILER")) {
            (Some(c), _) => c.clone(),
            (None, Some(c)) => PathBuf::from(c),
            (None, None) => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../compiler"),
        };
        let python =
            self.python.clone().or_else(|| env::var("FASTWIRE_PYTHON").ok()).unwrap_or_else(|| "python3".to_string());
        println!("cargo:rerun-if-env-changed=FASTWIRE_COMPILER");
        println!("cargo:rerun-if-changed={}", compiler.join("fastwire").display());
        // A fresh folder: no module of a package the schemas no longer hold.
        for entry in fs::read_dir(&gen)? {
            let path = entry?.path();
            if path.extension().and_then(|e| e.to_str()) == Some("rs") {
                fs::remove_file(path)?;
            }
        }
        let mut cmd = Command::new(&python);
        cmd.env("PYTHONPATH", &compiler).args(["-m", "fastwire", "compile"]);
        for s in schemas {
            println!("cargo:rerun-if-changed={}", s.as_ref().display());
            cmd.arg(s.as_ref());
        }
        for i in &self.includes {
            cmd.arg("-I").arg(i);
        }
        cmd.args(["--lang", "rust", "--final", "--json", "--proto", "-q", "-o"]).arg(&gen);
        let output = cmd.output().map_err(|e| Error::new(e.kind(), format!("running {python}: {e}")))?;
        if !output.status.success() {
            return Err(Error::new(
                ErrorKind::InvalidData,
                format!("fastwire compile failed:\n{}", String::from_utf8_lossy(&output.stderr)),
            ));
        }
        let mut modules = Vec::new();
        for entry in fs::read_dir(&gen)? {
            let path = entry?.path();
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let text = fs::read_to_string(&path)?;
            let (Some(stem), Some(package)) = (path.file_stem().and_then(|s| s.to_str()), package_of(&text)) else {
                continue;
            };
            modules.push(Module {
                file: path.clone(),
                name: stem.to_string(),
                package,
            });
        }
        modules.sort_by(|a, b| a.name.cmp(&b.name));
        fs::write(out.join("fastwire.rs"), declare(&modules))?;
        Ok(())
    }
}

struct Module {
    file: PathBuf,
    name: String,
    package: String,
}

/// The package a generated module is of: its first line names it, "(package NAME)".
fn package_of(text: &str) -> Option<String> {
    let first = text.lines().next()?;
    if !first.starts_with("//! Generated by fastwire") {
        return None;
    }
    let rest = &first[first.find("(package ")? + 9..];
    Some(rest[..rest.find(')')?].to_string())
}

/// The declarations of every module, each by its absolute path (so the text can be
/// `include!`d from anywhere), and `visit_struct` over all of them.
fn declare(modules: &[Module]) -> String {
    let mut out = String::from("// Generated by fastwire-build: the modules of every package. Do not edit.\n\n");
    for m in modules {
        // A program need not use every generated item.
        out.push_str(&format!(
            "#[allow(dead_code)]\n#[path = {:?}]\npub mod {};\n",
            m.file.display().to_string(),
            m.name
        ));
    }
    out.push_str(
        "\n/// Calls `visitor` with the struct named `name` (\"package.Struct\").\n\
         #[allow(dead_code)]\n\
         pub fn visit_struct<V: ::fastwire::Visitor>(name: &str, visitor: V) -> Option<V::Output> {\n\
         \x20   let (package, name) = name.split_once('.')?;\n\
         \x20   match package {\n",
    );
    for m in modules {
        out.push_str(&format!("        {:?} => {}::visit_struct(name, visitor),\n", m.package, m.name));
    }
    out.push_str("        _ => None,\n    }\n}\n");
    out
}
