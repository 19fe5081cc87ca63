package io.periscope.testing;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import com.auth0.jwt.interfaces.DecodedJWT;
import com.zerodeplibs.webpush.key.PublicKeySources;
import io.periscope.devices.VapidKeys;
import io.periscope.json.Json;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;

/**
 * A Web Push service on loopback, over TLS as real ones are, and the browsers subscribed to it. It
 * answers each subscription's endpoint with the status the test chose (201 by default) and keeps
 * every request; a test then proves a request is real Web Push by checking its VAPID signature (RFC
 * 8292) and decrypting its payload with the subscription's private key (RFC 8291), as the browser
 * would.
 */
public final class FakePushService implements AutoCloseable {
  private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();
  private static final Pattern VAPID = Pattern.compile("vapid t=([^,\\s]+),\\s*k=([A-Za-z0-9_-]+)");

  private final HeldCertificate certificate =
      new HeldCertificate.Builder().addSubjectAlternativeName("localhost").build();
  private final MockWebServer server = new MockWebServer();
  private final Map<String, Integer> answers = new ConcurrentHashMap<>();
  private final List<RecordedRequest> received = new CopyOnWriteArrayList<>();

  /** A browser's subscription: what it registers, and the private key only it holds. */
  public record Subscriber(
      String endpoint, String p256dh, String auth, KeyPair keys, byte[] authSecret) {
    /** The body of {@code POST /devices}: PushSubscription.toJSON() and a name. */
    public String registration(String name) {
      return Json.text(
          Map.of(
              "name", name, "endpoint", endpoint, "keys", Map.of("p256dh", p256dh, "auth", auth)));
    }

    String path() {
      return endpoint.substring(endpoint.indexOf("/push/"));
    }
  }

  public FakePushService() throws Exception {
    server.useHttps(
        new HandshakeCertificates.Builder().heldCertificate(certificate).build().sslSocketFactory(),
        false);
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            received.add(request);
            return new MockResponse().setResponseCode(answers.getOrDefault(request.getPath(), 404));
          }
        });
    server.start();
  }

  /**
   * {@code client} with this service's certificate trusted (and everything else about it kept: its
   * guard).
   */
  public OkHttpClient trusting(OkHttpClient client) {
    HandshakeCertificates trust =
        new HandshakeCertificates.Builder()
            .addTrustedCertificate(certificate.certificate())
            .build();
    return client
        .newBuilder()
        .sslSocketFactory(trust.sslSocketFactory(), trust.trustManager())
        .build();
  }

  /**
   * A new subscription whose endpoint answers {@code status} (201 accepted, 410 gone, 500 failing).
   */
  public Subscriber subscribe(int status) throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair keys = generator.generateKeyPair();
    byte[] authSecret = new byte[16];
    new SecureRandom().nextBytes(authSecret);
    String path = "/push/" + UUID.randomUUID();
    answers.put(path, status);
    return new Subscriber(
        "https://localhost:" + server.getPort() + path,
        B64URL.encodeToString(VapidKeys.uncompressed((ECPublicKey) keys.getPublic())),
        B64URL.encodeToString(authSecret),
        keys,
        authSecret);
  }

  /** The requests that reached {@code subscriber}'s endpoint. */
  public List<RecordedRequest> receivedBy(Subscriber subscriber) {
    return received.stream().filter(r -> r.getPath().equals(subscriber.path())).toList();
  }

  /**
   * The VAPID claims of a push request, once its {@code Authorization: vapid t=…, k=…} header names
   * {@code vapidPublicKey} and its JWT verifies (ES256) against that key for the endpoint's origin.
   */
  public static DecodedJWT verifiedVapid(RecordedRequest request, String vapidPublicKey) {
    Matcher m = VAPID.matcher(request.getHeader("Authorization"));
    if (!m.matches())
      throw new AssertionError(
          "not a VAPID Authorization header: " + request.getHeader("Authorization"));
    if (!m.group(2).equals(vapidPublicKey))
      throw new AssertionError("signed with another key: " + m.group(2));
    ECPublicKey key =
        PublicKeySources.ofUncompressedBytes(Base64.getUrlDecoder().decode(vapidPublicKey))
            .extract();
    String origin = "https://localhost:" + request.getRequestUrl().port();
    return JWT.require(Algorithm.ECDSA256(key, null))
        .withAudience(origin)
        .build()
        .verify(m.group(1));
  }

  /**
   * The payload as the subscriber's browser decrypts it (RFC 8291 and RFC 8188, one aes128gcm
   * record).
   */
  public static String decrypt(RecordedRequest request, Subscriber subscriber)
      throws GeneralSecurityException {
    ByteBuffer body = ByteBuffer.wrap(request.getBody().readByteArray());
    byte[] salt = new byte[16];
    body.get(salt);
    body.getInt(); // record size
    byte[] serverKey = new byte[body.get() & 0xff];
    body.get(serverKey);
    byte[] ciphertext = new byte[body.remaining()];
    body.get(ciphertext);

    KeyAgreement agreement = KeyAgreement.getInstance("ECDH");
    agreement.init(subscriber.keys().getPrivate());
    agreement.doPhase(PublicKeySources.ofUncompressedBytes(serverKey).extract(), true);
    byte[] ecdhSecret = agreement.generateSecret();
    byte[] uaPublic = VapidKeys.uncompressed((ECPublicKey) subscriber.keys().getPublic());
    byte[] keyInfo =
        concat(
            "WebPush: info\0".getBytes(StandardCharsets.US_ASCII),
            uaPublic,
            serverKey,
            new byte[] {1});
    byte[] ikm = hmac(hmac(subscriber.authSecret(), ecdhSecret), keyInfo);
    byte[] prk = hmac(salt, ikm);
    byte[] cek =
        Arrays.copyOf(
            hmac(prk, "Content-Encoding: aes128gcm\0\1".getBytes(StandardCharsets.US_ASCII)), 16);
    byte[] nonce =
        Arrays.copyOf(
            hmac(prk, "Content-Encoding: nonce\0\1".getBytes(StandardCharsets.US_ASCII)), 12);

    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(
        Cipher.DECRYPT_MODE, new SecretKeySpec(cek, "AES"), new GCMParameterSpec(128, nonce));
    byte[] padded = cipher.doFinal(ciphertext);
    int end = padded.length - 1;
    while (end >= 0 && padded[end] == 0) end--;
    if (end < 0 || padded[end] != 2) throw new AssertionError("not the last record's delimiter");
    return new String(padded, 0, end, StandardCharsets.UTF_8);
  }

  private static byte[] hmac(byte[] key, byte[] data) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    return mac.doFinal(data);
  }

  private static byte[] concat(byte[]... parts) {
    ByteBuffer all = ByteBuffer.allocate(Arrays.stream(parts).mapToInt(p -> p.length).sum());
    for (byte[] p : parts) all.put(p);
    return all.array();
  }

  @Override
  public void close() throws Exception {
    server.shutdown();
  }
}
