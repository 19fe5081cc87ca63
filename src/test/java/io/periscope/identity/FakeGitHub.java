package io.periscope.identity;

import static io.periscope.identity.FakeOidcProvider.json;
import static io.periscope.identity.FakeOidcProvider.query;

import com.nimbusds.oauth2.sdk.pkce.CodeChallenge;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;

/**
 * GitHub's OAuth web flow and REST API on loopback: the token endpoint checks the client, the code
 * and the PKCE verifier, and answers a refused code with HTTP 200 and an error, as GitHub does;
 * /user answers the user's id, /user/emails lists the user's addresses and /user/orgs the
 * organizations ({@link #orgs}) for the access token.
 */
final class FakeGitHub implements AutoCloseable {
  static final String CLIENT_ID = "gh-client-id";
  static final String CLIENT_SECRET = "gh-client-secret-0815";

  final MockWebServer server = new MockWebServer();
  private final Map<String, String> challenges = new ConcurrentHashMap<>();
  private final Map<String, List<Map<String, Object>>> emails = new ConcurrentHashMap<>();
  private final Map<String, Long> userIds = new ConcurrentHashMap<>();

  /** The organizations (logins) each GitHub user id is a member of; none when absent. */
  final Map<Long, List<String>> orgs = new ConcurrentHashMap<>();

  FakeGitHub() throws Exception {
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            return answer(request);
          }
        });
    server.start();
  }

  String baseUrl() {
    String url = server.url("/").toString();
    return url.substring(0, url.length() - 1);
  }

  /**
   * The user signs in at GitHub and has these addresses; answers the code. The user's id is the
   * same for the same first address, as one GitHub user's would be.
   */
  String approve(URI authorization, List<Map<String, Object>> addresses) {
    return approve(
        authorization,
        Math.abs((long) String.valueOf(addresses.get(0).get("email")).hashCode()),
        addresses);
  }

  /** The GitHub user {@code userId} signs in and has these addresses; answers the code. */
  String approve(URI authorization, long userId, List<Map<String, Object>> addresses) {
    Map<String, String> q = query(authorization.getRawQuery());
    if (!"S256".equals(q.get("code_challenge_method")) || !CLIENT_ID.equals(q.get("client_id"))) {
      throw new AssertionError("not a PKCE S256 request of our client: " + q);
    }
    String code = UUID.randomUUID().toString();
    challenges.put(code, q.get("code_challenge"));
    emails.put("gho_" + code, addresses);
    userIds.put("gho_" + code, userId);
    return code;
  }

  private MockResponse answer(RecordedRequest request) {
    String path = request.getRequestUrl().encodedPath();
    if (path.equals("/login/oauth/access_token") && request.getMethod().equals("POST")) {
      Map<String, String> form = query(request.getBody().readUtf8());
      String challenge = challenges.remove(form.getOrDefault("code", ""));
      boolean client =
          CLIENT_ID.equals(form.get("client_id"))
              && CLIENT_SECRET.equals(form.get("client_secret"));
      boolean verifier =
          challenge != null
              && challenge.equals(
                  CodeChallenge.compute(
                          CodeChallengeMethod.S256,
                          new CodeVerifier(form.getOrDefault("code_verifier", "x".repeat(43))))
                      .getValue());
      if (!client || !verifier || !"application/json".equals(request.getHeader("Accept"))) {
        return json(Map.of("error", "bad_verification_code"));
      }
      return json(
          Map.of(
              "access_token",
              "gho_" + form.get("code"),
              "token_type",
              "bearer",
              "scope",
              "user:email"));
    }
    if (path.equals("/user")) {
      String bearer = request.getHeader("Authorization");
      Long id = bearer == null ? null : userIds.get(bearer.replace("Bearer ", ""));
      return id == null
          ? new MockResponse().setResponseCode(401)
          : json(Map.of("id", id, "login", "user" + id));
    }
    if (path.equals("/user/orgs")) {
      String bearer = request.getHeader("Authorization");
      Long id = bearer == null ? null : userIds.get(bearer.replace("Bearer ", ""));
      if (id == null) return new MockResponse().setResponseCode(401);
      return json(orgs.getOrDefault(id, List.of()).stream().map(o -> Map.of("login", o)).toList());
    }
    if (path.equals("/user/emails")) {
      String bearer = request.getHeader("Authorization");
      List<Map<String, Object>> list =
          bearer == null ? null : emails.get(bearer.replace("Bearer ", ""));
      return list == null ? new MockResponse().setResponseCode(401) : json(list);
    }
    return new MockResponse().setResponseCode(404);
  }

  @Override
  public void close() throws Exception {
    server.shutdown();
  }
}
