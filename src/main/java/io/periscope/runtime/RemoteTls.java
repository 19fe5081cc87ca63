package io.periscope.runtime;

import com.typesafe.config.Config;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import org.apache.pekko.event.NoMarkerLogging$;
import org.apache.pekko.remote.artery.tcp.ssl.RotatingKeysSSLEngineProvider;

/**
 * Remoting over TLS (REMOTE_TLS, {@code periscope.remote.tls} in conf/periscope.conf): the node's
 * certificate, key and CA are read before the node starts, by the engine provider remoting uses, so
 * a missing or unusable file stops the start with one line naming REMOTE_TLS_DIR. Without this
 * check Pekko reads them only at the first connection, and the node retries handshakes until it
 * gives up joining, minutes later.
 */
public final class RemoteTls {
  private RemoteTls() {}

  /** Nothing when REMOTE_TLS is off; otherwise the files must make a certificate peers accept. */
  public static void check(Config config) {
    if (!config.getBoolean("periscope.remote.tls.enabled")) return;
    Config engine = config.getConfig("pekko.remote.artery.ssl.rotating-keys-engine");
    String problem = "REMOTE_TLS_DIR (" + config.getString("periscope.remote.tls.dir") + "): ";
    try {
      new RotatingKeysSSLEngineProvider(engine, NoMarkerLogging$.MODULE$)
          .createServerSSLEngine("localhost", 0);
    } catch (Exception e) { // checked ones too: the provider is Scala
      Throwable cause = innermost(e);
      throw new IllegalArgumentException(
          problem
              + "cannot use tls.crt, tls.key (RSA, PEM) and ca.crt: "
              + (cause instanceof NoSuchFileException ? "no file " : "")
              + cause.getMessage());
    }
    X509Certificate certificate = certificate(engine.getString("cert-file"));
    try {
      certificate.checkValidity();
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          problem
              + "tls.crt is valid only from "
              + certificate.getNotBefore()
              + " to "
              + certificate.getNotAfter()
              + ": its peers would refuse it");
    }
    try {
      certificate.verify(certificate(engine.getString("ca-cert-file")).getPublicKey());
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          problem + "ca.crt did not issue tls.crt: its peers would refuse this node");
    }
  }

  private static X509Certificate certificate(String file) {
    try (InputStream in = Files.newInputStream(Path.of(file))) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    } catch (IOException | GeneralSecurityException e) {
      // the provider has just read this file; only a file replaced in between gets here
      throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
    }
  }

  private static Throwable innermost(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause().getMessage() != null)
      cause = cause.getCause();
    return cause;
  }
}
