//! Links the `fornax-hook` binary statically (a static PIE) on Linux with glibc, and leaves
//! `fornax` as rustc links it.
//!
//! An agent starts `fornax-hook` for every event, so the dynamic loader's work (mapping
//! `libc.so.6` and `libgcc_s.so.1`, resolving their symbols) is paid on every tool call; a
//! static PIE has none of it and keeps ASLR and full RELRO (ADR 0007, amendment "a static
//! hook"). Cargo sets `-C target-feature=+crt-static` only for a whole build, not for one binary,
//! so this script gives that binary alone `-static-pie` and a private library folder in which
//! each C library rustc names for a dynamic link (`-lc`, `-lgcc_s`, …) is a linker script
//! naming the static archives that stand in for it (those rustc itself uses with
//! `+crt-static`).
//!
//! Falls back to the ordinary dynamic link, with a warning, when a static archive or the
//! static-PIE start file is not installed (glibc's static libraries are a separate package on some distributions); set
//! `FORNAX_HOOK_LINK=dynamic` to ask for it. The choice reaches the package's crates as the
//! compile-time variable `FORNAX_HOOK_LINK` (`static` or `dynamic`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Each library rustc links a glibc binary against dynamically, with the static archives that
/// replace it in a static link.
const STAND_INS: &[(&str, &[&str])] = &[
    ("gcc_s", &["libgcc_eh.a", "libgcc.a"]),
    ("util", &["libutil.a"]),
    ("rt", &["librt.a"]),
    ("pthread", &["libpthread.a"]),
    ("m", &["libm.a"]),
    ("dl", &["libdl.a"]),
    ("c", &["libc.a", "libgcc_eh.a", "libgcc.a"]),
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=FORNAX_HOOK_LINK");
    println!("cargo:rerun-if-env-changed=CC");
    let link = match static_hook() {
        Ok(()) => "static",
        Err(Skip::Quiet) => "dynamic",
        Err(Skip::Warn(why)) => {
            println!("cargo:warning=fornax-hook is linked dynamically: {why}");
            "dynamic"
        }
    };
    println!("cargo:rustc-env=FORNAX_HOOK_LINK={link}");
}

enum Skip {
    /// Not a target this applies to, or asked for.
    Quiet,
    /// A target it applies to, but the static libraries are missing.
    Warn(String),
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}

fn static_hook() -> Result<(), Skip> {
    if env("FORNAX_HOOK_LINK") == "dynamic" {
        return Err(Skip::Quiet);
    }
    let glibc = env("CARGO_CFG_TARGET_OS") == "linux" && env("CARGO_CFG_TARGET_ENV") == "gnu";
    // Already static (the whole build has `+crt-static`), or built for another machine, whose C
    // compiler this script does not know.
    let crt_static = env("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|f| f == "crt-static");
    if !glibc || crt_static || env("TARGET") != env("HOST") {
        return Err(Skip::Quiet);
    }
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    // The start file of a static PIE: absent when glibc was built without static-pie support.
    archive_path(&cc, "rcrt1.o")?;
    let dir = PathBuf::from(env("OUT_DIR")).join("static-hook");
    std::fs::create_dir_all(&dir)
        .map_err(|e| Skip::Warn(format!("creating {}: {e}", dir.display())))?;
    for (lib, archives) in STAND_INS {
        let mut paths = Vec::new();
        for archive in *archives {
            paths.push(archive_path(&cc, archive)?);
        }
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let script = format!("GROUP ( {} )\n", names.join(" "));
        let file = dir.join(format!("lib{lib}.so"));
        std::fs::write(&file, script)
            .map_err(|e| Skip::Warn(format!("writing {}: {e}", file.display())))?;
    }
    println!("cargo:rustc-link-arg-bin=fornax-hook=-static-pie");
    println!("cargo:rustc-link-arg-bin=fornax-hook=-L{}", dir.display());
    Ok(())
}

/// Where the C compiler finds `archive` (or start file), which must exist.
fn archive_path(cc: &str, archive: &str) -> Result<PathBuf, Skip> {
    let out = Command::new(cc)
        .arg(format!("-print-file-name={archive}"))
        .output()
        .map_err(|e| Skip::Warn(format!("running `{cc}`: {e}")))?;
    let printed = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let path = Path::new(&printed);
    // Asked for a file it cannot find, the compiler prints the bare name back.
    if !out.status.success() || !path.is_absolute() || !path.is_file() {
        return Err(Skip::Warn(format!(
            "{archive} is not installed (a static C library: glibc's or the C compiler's)"
        )));
    }
    // A path with spaces or parentheses would not parse in a linker script.
    if printed.contains(|c: char| c.is_whitespace() || c == '(' || c == ')') {
        return Err(Skip::Warn(format!(
            "{printed} cannot be named in a linker script"
        )));
    }
    Ok(path.to_path_buf())
}
