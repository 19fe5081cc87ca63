package io.periscope.identity;

import com.nimbusds.oauth2.sdk.pkce.CodeChallenge;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;

/**
 * One sign-in in progress: the {@code state} sent to the provider, the PKCE code verifier and the
 * OIDC nonce, for one provider, until {@code expiresAt}; and the web client's own nonce, handed
 * back with the session so that the browser tab that started the sign-in knows it is its own (null
 * when the caller sent none). It travels sealed in a cookie (see {@link SignInFlows}), so any node
 * of a cluster can finish the sign-in.
 */
public record SignInFlow(
    String provider,
    String state,
    String codeVerifier,
    String nonce,
    Instant expiresAt,
    String clientNonce) {
  private static final SecureRandom RANDOM = new SecureRandom();

  static SignInFlow start(String provider, Instant expiresAt, String clientNonce) {
    return new SignInFlow(provider, random(), random(), random(), expiresAt, clientNonce);
  }

  /** The S256 challenge of the verifier, which the provider keeps until the code is exchanged. */
  String codeChallenge() {
    return CodeChallenge.compute(CodeChallengeMethod.S256, new CodeVerifier(codeVerifier))
        .getValue();
  }

  @Override
  public String toString() {
    return "SignInFlow[provider=" + provider + ", expiresAt=" + expiresAt + "]";
  }

  /** 256 random bits in base64url: 43 characters, a valid PKCE verifier. */
  private static String random() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
