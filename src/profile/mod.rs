//! Profiles by executable name (SPEC section 15): GUIs that cannot pass arguments (Fritz,
//! ChessBase, pychess's engine probe) register a link or copy of fenguard named
//! `fenguard-NAME`, which reads `[profiles.NAME]` of the configuration, else
//! `fenguard-NAME.toml` beside the executable or in fenguard's configuration directory
//! (`$XDG_CONFIG_HOME/fenguard`, else `~/.config/fenguard`). A profile holds any section of
//! the configuration, laid key by key over the rest of the file it is in. `fenguard wrap`
//! ([`wrap`]) makes the link and the profile.
//!
//! ```
//! use std::ffi::OsStr;
//! assert_eq!(fenguard::profile::name_of(OsStr::new("/opt/bin/fenguard-fairy")), Some("fairy".to_owned()));
//! assert_eq!(fenguard::profile::name_of(OsStr::new("fenguard")), None);
//! ```

pub mod wrap;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use crate::config::Config;

pub use wrap::WrapArgs;

/// The profile an executable path selects: the `NAME` of `fenguard-NAME` (`.exe` dropped).
pub fn name_of(argv0: &OsStr) -> Option<String> {
    let stem = Path::new(argv0).file_stem()?.to_str()?;
    let name = stem.strip_prefix("fenguard-")?;
    (!name.is_empty()).then(|| name.to_owned())
}

/// `$XDG_CONFIG_HOME/fenguard`, else `$HOME/.config/fenguard`.
pub fn config_dir(var: &impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let non_empty = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    non_empty("XDG_CONFIG_HOME")
        .or_else(|| non_empty("HOME").map(|home| home.join(".config")))
        .map(|dir| dir.join("fenguard"))
}

/// The directory an executable started as `argv0` is in: its own directory when the path
/// has one, else the first `PATH` entry holding it.
pub fn exe_dir(argv0: &OsStr, path: Option<&OsStr>) -> Option<PathBuf> {
    let p = Path::new(argv0);
    if let Some(parent) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
        return Some(parent.to_path_buf());
    }
    std::env::split_paths(path?).find(|dir| dir.join(p).is_file())
}

/// A loaded configuration and the file it came from (relative paths in it, such as
/// `book.file`, are read from that file's directory).
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The configuration.
    pub config: Config,
    /// The file read (`None`: built-in defaults).
    pub file: Option<PathBuf>,
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| {
        format!(
            "config error: cannot read config file {}: {e}",
            path.display()
        )
    })
}

/// The configuration of profile `name`: `[profiles.NAME]` of `base` (the file `--config` or
/// `$FENGUARD_CONFIG` names, else `CONFIG_DIR/fenguard.toml` when it exists), else
/// `fenguard-NAME.toml` in `exe_dir`, else in `config_dir`, laid over `base`.
///
/// # Errors
/// A configuration that cannot be read, or no profile of that name (naming every place
/// looked in).
pub fn load(
    name: &str,
    base: Option<PathBuf>,
    exe_dir: Option<PathBuf>,
    config_dir: Option<PathBuf>,
) -> Result<Loaded, String> {
    let base = base.or_else(|| {
        config_dir
            .as_ref()
            .map(|d| d.join("fenguard.toml"))
            .filter(|p| p.is_file())
    });
    let mut looked = Vec::new();
    let mut base_table = toml::Table::new();
    if let Some(path) = &base {
        let text = read(path)?;
        let config = Config::from_toml(&text, path).map_err(|e| format!("config error: {e}"))?;
        base_table = toml::from_str(&text).map_err(|e| format!("config error: {e}"))?;
        let profiles = base_table.remove("profiles");
        if config.profiles.contains_key(name) {
            let profile = profiles
                .and_then(|p| p.as_table()?.get(name)?.as_table().cloned())
                .unwrap_or_default();
            return merged(base_table, profile, path);
        }
        looked.push(format!("[profiles.{name}] in {}", path.display()));
    }
    let file = format!("fenguard-{name}.toml");
    for dir in [exe_dir, config_dir].into_iter().flatten() {
        let path = dir.join(&file);
        if path.is_file() {
            let text = read(&path)?;
            Config::from_toml(&text, &path).map_err(|e| format!("config error: {e}"))?;
            let profile: toml::Table =
                toml::from_str(&text).map_err(|e| format!("config error: {e}"))?;
            return merged(base_table, profile, &path);
        }
        looked.push(path.display().to_string());
    }
    Err(format!(
        "config error: no profile `{name}` for this executable (fenguard-{name}): looked for {} (`fenguard wrap ENGINE --name {name}` makes one)",
        looked.join(", ")
    ))
}

/// `profile` laid over `base`, key by key (tables merged, other values replaced).
fn merged(mut base: toml::Table, profile: toml::Table, file: &Path) -> Result<Loaded, String> {
    lay_over(&mut base, profile);
    let text = toml::to_string(&base).map_err(|e| format!("config error: {e}"))?;
    let config = Config::from_toml(&text, file).map_err(|e| format!("config error: {e}"))?;
    Ok(Loaded {
        config,
        file: Some(file.to_path_buf()),
    })
}

fn lay_over(base: &mut toml::Table, over: toml::Table) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => lay_over(b, o),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch directory of this test, removed when it goes out of scope (passed or not).
    struct Scratch(PathBuf);

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    impl std::ops::Deref for Scratch {
        type Target = PathBuf;
        fn deref(&self) -> &PathBuf {
            &self.0
        }
    }

    fn dir(name: &str) -> Scratch {
        let d =
            std::env::temp_dir().join(format!("fenguard-profile-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }

    #[test]
    fn profile_section_lays_over_the_rest_of_the_file() {
        let d = dir("section");
        let file = d.join("fenguard.toml");
        let text = "[engine]\nquit_grace_ms = 7\n[profiles.fairy.engine]\ncommand = \"fsf\"\n";
        std::fs::write(&file, text).unwrap();
        let loaded = load("fairy", Some(file), None, None).unwrap();
        assert_eq!(loaded.config.engine.command, "fsf");
        assert_eq!(loaded.config.engine.quit_grace_ms, 7);
        assert!(loaded.config.profiles.is_empty());
    }

    #[test]
    fn profile_file_beside_the_executable_then_the_config_directory() {
        let (exe, conf) = (dir("exe"), dir("conf"));
        std::fs::write(conf.join("fenguard-sf.toml"), "[engine]\ncommand = \"b\"\n").unwrap();
        let loaded = load(
            "sf",
            None,
            Some(exe.to_path_buf()),
            Some(conf.to_path_buf()),
        )
        .unwrap();
        assert_eq!(loaded.config.engine.command, "b");
        std::fs::write(exe.join("fenguard-sf.toml"), "[engine]\ncommand = \"a\"\n").unwrap();
        let loaded = load(
            "sf",
            None,
            Some(exe.to_path_buf()),
            Some(conf.to_path_buf()),
        )
        .unwrap();
        assert_eq!(loaded.config.engine.command, "a");
    }

    #[test]
    fn missing_profile_names_every_place_looked() {
        let d = dir("missing");
        let err = load("x", None, Some(d.to_path_buf()), None).unwrap_err();
        assert!(
            err.contains(&d.join("fenguard-x.toml").display().to_string()),
            "{err}"
        );
    }

    #[test]
    fn bad_key_in_a_profile_is_named() {
        let err = Config::from_toml("[profiles.a.engine]\ncomand = \"x\"\n", "f.toml").unwrap_err();
        assert!(
            err.to_string().contains("profiles.a.engine.comand"),
            "{err}"
        );
    }
}
