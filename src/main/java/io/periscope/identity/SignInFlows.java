package io.periscope.identity;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.periscope.json.Json;
import io.periscope.keys.KeyCipher;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Optional;

/**
 * Seals a sign-in flow into a cookie value and opens it again: AES-256-GCM under a key derived from
 * the service secret, so the value is unreadable and unforgeable in the browser, and every node of
 * a cluster can open it.
 */
final class SignInFlows {
  private final KeyCipher cipher;

  SignInFlows(String serviceSecret) {
    this.cipher = new KeyCipher(serviceSecret, "periscope sign-in flow v1");
  }

  String seal(SignInFlow flow) {
    return cipher.encrypt(Json.text(flow));
  }

  /**
   * The flow sealed in {@code cookie}, when it is this provider's, unexpired at {@code now}, and
   * carries exactly {@code state}.
   */
  Optional<SignInFlow> open(String cookie, String provider, String state, Instant now) {
    if (cookie == null || state == null) return Optional.empty();
    SignInFlow flow;
    try {
      flow = Json.MAPPER.readValue(cipher.decrypt(cookie), SignInFlow.class);
    } catch (IllegalStateException | JsonProcessingException e) {
      return Optional.empty(); // forged, damaged, or sealed under another secret
    }
    boolean matches =
        flow.provider().equals(provider)
            && now.isBefore(flow.expiresAt())
            && MessageDigest.isEqual(
                flow.state().getBytes(StandardCharsets.UTF_8),
                state.getBytes(StandardCharsets.UTF_8));
    return matches ? Optional.of(flow) : Optional.empty();
  }
}
