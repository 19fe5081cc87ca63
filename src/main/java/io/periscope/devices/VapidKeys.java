package io.periscope.devices;

import com.zerodeplibs.webpush.VAPIDKeyPair;
import com.zerodeplibs.webpush.VAPIDKeyPairs;
import com.zerodeplibs.webpush.key.PrivateKeySources;
import com.zerodeplibs.webpush.key.PublicKeySources;
import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPrivateKeySpec;
import java.util.Base64;

/**
 * The service's VAPID key pair (RFC 8292), a P-256 key pair in the form every Web Push tool uses:
 * the public key as the base64url of its 65-byte uncompressed point (what browsers take as {@code
 * applicationServerKey}), the private key as the base64url of its 32-byte scalar. Never printed
 * with the private key.
 */
public record VapidKeys(String publicKey, String privateKey) {
  private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();

  /** A new random pair. */
  public static VapidKeys generate() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
      KeyPair pair = generator.generateKeyPair();
      return new VapidKeys(
          B64URL.encodeToString(uncompressed((ECPublicKey) pair.getPublic())),
          B64URL.encodeToString(unsigned32(((ECPrivateKey) pair.getPrivate()).getS())));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot generate a P-256 key pair", e);
    }
  }

  /**
   * A configured pair, checked: both keys decode, the public key is a point of P-256, and the
   * private key is its partner (a signature made with one verifies with the other).
   *
   * @throws IllegalArgumentException saying what is wrong, never quoting a key
   */
  public static VapidKeys parse(String publicKey, String privateKey) {
    // Kept unpadded, as served to browsers.
    VapidKeys keys =
        new VapidKeys(
            publicKey.strip().replaceAll("=+$", ""), privateKey.strip().replaceAll("=+$", ""));
    ECPublicKey pub = keys.ecPublicKey();
    ECPrivateKey priv = keys.ecPrivateKey();
    try {
      byte[] probe = "periscope vapid key check".getBytes(java.nio.charset.StandardCharsets.UTF_8);
      Signature signer = Signature.getInstance("SHA256withECDSA");
      signer.initSign(priv);
      signer.update(probe);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance("SHA256withECDSA");
      verifier.initVerify(pub);
      verifier.update(probe);
      if (!verifier.verify(signature)) {
        throw new IllegalArgumentException(
            "VAPID_PRIVATE_KEY is not the private key of VAPID_PUBLIC_KEY");
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("VAPID_PRIVATE_KEY is not a usable P-256 private key");
    }
    return keys;
  }

  /** The pair as the Web Push library signs with it. */
  public VAPIDKeyPair toKeyPair() {
    return VAPIDKeyPairs.of(
        PrivateKeySources.ofECPrivateKey(ecPrivateKey()),
        PublicKeySources.ofECPublicKey(ecPublicKey()));
  }

  ECPublicKey ecPublicKey() {
    try {
      return PublicKeySources.ofUncompressedBytes(decode(publicKey)).extract();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "VAPID_PUBLIC_KEY must be the base64url of a 65-byte uncompressed P-256 point");
    }
  }

  private ECPrivateKey ecPrivateKey() {
    try {
      byte[] scalar = decode(privateKey);
      if (scalar.length != 32) throw new IllegalArgumentException("not 32 bytes");
      AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
      parameters.init(new ECGenParameterSpec("secp256r1"));
      ECParameterSpec spec = parameters.getParameterSpec(ECParameterSpec.class);
      return (ECPrivateKey)
          KeyFactory.getInstance("EC")
              .generatePrivate(new ECPrivateKeySpec(new BigInteger(1, scalar), spec));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "VAPID_PRIVATE_KEY must be the base64url of a 32-byte P-256 private key");
    }
  }

  /** base64url, with or without padding (tools differ). */
  static byte[] decode(String base64url) {
    return Base64.getUrlDecoder().decode(base64url.replaceAll("=+$", ""));
  }

  /**
   * A P-256 public key as its 65-byte uncompressed point (0x04, x, y): the form Web Push exchanges
   * keys in.
   */
  public static byte[] uncompressed(ECPublicKey key) {
    byte[] point = new byte[65];
    point[0] = 0x04;
    System.arraycopy(unsigned32(key.getW().getAffineX()), 0, point, 1, 32);
    System.arraycopy(unsigned32(key.getW().getAffineY()), 0, point, 33, 32);
    return point;
  }

  private static byte[] unsigned32(BigInteger value) {
    byte[] raw = value.toByteArray();
    byte[] out = new byte[32];
    int copy = Math.min(raw.length, 32);
    System.arraycopy(raw, raw.length - copy, out, 32 - copy, copy);
    return out;
  }

  @Override
  public String toString() {
    return "VapidKeys[publicKey=" + publicKey + "]";
  }
}
