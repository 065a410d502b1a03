//! TLS for the daemon and its client (rustls with the *ring* provider), and the bridge that
//! turns a TLS stream into a plain socket for the session's blocking reader threads.
//!
//! The session's shell reads and writes its GUI side with blocking calls on threads of its own
//! ([`crate::proxy::core`]); a TLS stream is not split that way. So a TLS connection is carried
//! by a tokio task between the network and one end of a Unix socket pair, and the session (or
//! `fenguard connect`) uses the other end like any plain connection.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _};

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

/// Copies between `net` (a TLS stream) and `local` (one end of a socket pair) until `local`
/// has no more to send and `net` has ended or `linger` has passed since. The end of `net`'s
/// input closes `local`'s output (the peer sees the end of input); the end of `local`'s closes
/// the TLS stream (`close_notify`).
pub async fn bridge<N>(net: N, local: tokio::net::UnixStream, linger: Duration)
where
    N: AsyncRead + AsyncWrite + Unpin,
{
    let (mut net_in, mut net_out) = tokio::io::split(net);
    let (mut local_in, mut local_out) = local.into_split();
    let inbound = async {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            match net_in.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if local_out.write_all(&buf[..n]).await.is_err() {
                        break;
                    }
                }
            }
        }
        let _ = local_out.shutdown().await;
    };
    let outbound = async {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            match local_in.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if net_out.write_all(&buf[..n]).await.is_err() || net_out.flush().await.is_err()
                    {
                        break;
                    }
                }
            }
        }
        let _ = net_out.shutdown().await;
    };
    tokio::pin!(inbound, outbound);
    tokio::select! {
        () = &mut inbound => {
            outbound.await;
        }
        () = &mut outbound => {
            let _ = tokio::time::timeout(linger, inbound).await;
        }
    }
}
