//! TLS configuration for the daemon and its client (rustls with the *ring* provider). The
//! session's shell reads and writes an established connection with blocking calls from
//! threads of its own, as a plain socket: [`TlsStream`](crate::net::tls_stream::TlsStream).

use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// The rustls provider fenguard uses (*ring*: builds without cmake or nasm).
fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A TLS setup error, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A PEM file that cannot be read or holds nothing usable.
    #[error("cannot read {what} `{path}`: {message}")]
    Pem {
        /// `certificate`, `private key` or `CA certificate`.
        what: &'static str,
        /// The file.
        path: String,
        /// Why.
        message: String,
    },
    /// rustls refused the configuration (e.g. a key that does not match the certificate).
    #[error("TLS setup failed: {0}")]
    Rustls(#[from] rustls::Error),
}

fn certs(path: &Path, what: &'static str) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let pem = |message: String| TlsError::Pem {
        what,
        path: path.display().to_string(),
        message,
    };
    let certs: Vec<_> = CertificateDer::pem_file_iter(path)
        .map_err(|e| pem(e.to_string()))?
        .collect::<Result<_, _>>()
        .map_err(|e| pem(e.to_string()))?;
    if certs.is_empty() {
        return Err(pem("no PEM certificate in it".to_owned()));
    }
    Ok(certs)
}

/// The server side: certificate chain and key from PEM files.
///
/// # Errors
/// [`TlsError`] naming the file that is missing or bad.
pub fn server_config(cert: &Path, key: &Path) -> Result<Arc<rustls::ServerConfig>, TlsError> {
    let chain = certs(cert, "certificate")?;
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| TlsError::Pem {
        what: "private key",
        path: key.display().to_string(),
        message: e.to_string(),
    })?;
    let config = rustls::ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(chain, key)?;
    Ok(Arc::new(config))
}

/// Where `fenguard connect` finds trusted roots without `--ca` (Debian, Fedora, Alpine ...).
const SYSTEM_ROOTS: [&str; 3] = [
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/pki/tls/certs/ca-bundle.crt",
    "/etc/ssl/cert.pem",
];

/// The client side: the server's certificate is checked against `ca` (a self-signed
/// certificate or a private CA, PEM), else the system's roots.
///
/// # Errors
/// [`TlsError`] when `ca` cannot be read, or no roots are found.
pub fn client_config(ca: Option<&Path>) -> Result<Arc<rustls::ClientConfig>, TlsError> {
    let mut roots = rustls::RootCertStore::empty();
    let found = match ca {
        Some(ca) => certs(ca, "CA certificate")?,
        None => SYSTEM_ROOTS
            .iter()
            .find_map(|p| certs(Path::new(p), "CA certificate").ok())
            .ok_or_else(|| TlsError::Pem {
                what: "CA certificate",
                path: SYSTEM_ROOTS.join(", "),
                message: "no system roots found: pass --ca FILE".to_owned(),
            })?,
    };
    for cert in found {
        // A root rustls cannot parse is skipped, as browsers skip one.
        let _ = roots.add(cert);
    }
    let config = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}
