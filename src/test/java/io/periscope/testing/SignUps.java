package io.periscope.testing;

import static io.periscope.testing.InProcessService.json;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.periscope.json.Json;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Sign-up, verification and sign-in over real HTTP, as a person does them, the tokens read out of
 * the mails a real SMTP server ({@link Mailbox}) took. Every password and token sent is kept, so a
 * test can check that none was ever logged.
 */
public final class SignUps {
  private SignUps() {}

  private static final List<String> SECRETS = new CopyOnWriteArrayList<>();

  /**
   * The service with {@code mailbox}'s SMTP server, sign-up open to anybody, and an /auth window
   * and a per-address connection cap wide enough for a flood of 100 at once.
   */
  public static Config withMail(Mailbox mailbox, Config journal) {
    return mailbox
        .smtpConfig()
        .withFallback(
            ConfigFactory.parseMap(
                Map.of(
                    "periscope.rate-limits.auth-per-ip-per-minute",
                    1000,
                    "periscope.http.connections.per-client",
                    1000,
                    "periscope.registration.mode",
                    "open")))
        .withFallback(journal);
  }

  /** Keeps {@code secret} among those no log line may hold. */
  public static void keepSecret(String secret) {
    SECRETS.add(secret);
  }

  /** Every password and token sent or kept so far. */
  public static String[] secrets() {
    return SECRETS.toArray(String[]::new);
  }

  /** POSTs {@code body} as JSON to {@code path}, keeping its password and token as secrets. */
  public static HttpResponse<String> post(
      InProcessService on, String path, Map<String, String> body) throws Exception {
    body.forEach(
        (k, v) -> {
          // shorter ones ("x") would match any line; they are refused before anything could log
          // them
          if ((k.equals("password") || k.equals("token")) && v.length() >= 8) keepSecret(v);
        });
    return on.send("POST", path, null, Json.text(body), Map.of());
  }

  public static HttpResponse<String> login(InProcessService on, String email, String password)
      throws Exception {
    return post(on, "/auth/login", Map.of("email", email, "password", password));
  }

  /** Registers and verifies through the mailed token; answers the account id. */
  public static String registered(
      InProcessService on, Mailbox mailbox, String email, String password) throws Exception {
    json(post(on, "/auth/register", Map.of("email", email, "password", password)), 202);
    String token = mailbox.await(email, 1).token();
    keepSecret(token);
    return json(post(on, "/auth/verify-email", Map.of("token", token)), 200)
        .get("user")
        .get("id")
        .asText();
  }
}
