package io.periscope.testing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import okhttp3.mockwebserver.RecordedRequest;

/**
 * A receiver's check, written from the Standard Webhooks specification and not with the production
 * class: the signed content is {@code id.timestamp.body}, the key the base64 after {@code whsec_},
 * the header a space-separated list of {@code v1,<base64 HMAC-SHA256>}.
 */
public final class StandardWebhooksReceiver {
  private StandardWebhooksReceiver() {}

  public static boolean verifies(String secret, RecordedRequest request, byte[] body)
      throws Exception {
    String id = request.getHeader("webhook-id");
    String timestamp = request.getHeader("webhook-timestamp");
    String header = request.getHeader("webhook-signature");
    if (id == null || timestamp == null || header == null) return false;
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(
        new SecretKeySpec(
            Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
    byte[] prefix = (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
    byte[] content = new byte[prefix.length + body.length];
    System.arraycopy(prefix, 0, content, 0, prefix.length);
    System.arraycopy(body, 0, content, prefix.length, body.length);
    byte[] expected = mac.doFinal(content);
    for (String signature : header.split(" ")) {
      if (signature.startsWith("v1,")
          && MessageDigest.isEqual(
              expected, Base64.getDecoder().decode(signature.substring("v1,".length())))) {
        return true;
      }
    }
    return false;
  }
}
