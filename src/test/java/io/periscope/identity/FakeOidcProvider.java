package io.periscope.identity;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.pkce.CodeChallenge;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import io.periscope.json.Json;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;

/**
 * An OpenID Connect provider on loopback, as real as the service can tell: discovery, a JWK set
 * with an RSA key made here, a token endpoint that checks the client secret, the redirect URI and
 * the PKCE verifier against the challenge it was shown, and a userinfo endpoint. The test plays the
 * browser: it reads the authorization URL the service redirected to and {@link #approve}s it, as
 * the person signing in would.
 */
final class FakeOidcProvider implements AutoCloseable {
  static final String CLIENT_ID = "periscope-client";
  static final String CLIENT_SECRET = "oidc-client-secret-4711";

  final MockWebServer server = new MockWebServer();
  final RSAKey key;

  /** A key the provider never published: what a forger signs with. */
  final RSAKey stranger;

  private final Map<String, Grant> grants = new ConcurrentHashMap<>();
  private final Map<String, Map<String, Object>> userInfo = new ConcurrentHashMap<>();

  /**
   * What a code was issued for: the request's challenge, redirect URI and nonce, and the ID token
   * to sign.
   */
  private record Grant(
      String challenge,
      String redirectUri,
      String nonce,
      Map<String, Object> claims,
      UnaryOperator<JWTClaimsSet.Builder> tamper,
      RSAKey signer) {}

  FakeOidcProvider() throws Exception {
    key = new RSAKeyGenerator(2048).keyID("k1").generate();
    stranger = new RSAKeyGenerator(2048).keyID("k1").generate();
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            try {
              return answer(request);
            } catch (Exception e) {
              return new MockResponse().setResponseCode(500).setBody(e.toString());
            }
          }
        });
    server.start();
  }

  String issuer() {
    return server.url("/realms/test").toString();
  }

  /**
   * Signs the user in at the provider: answers the code the provider would send back to the
   * callback.
   */
  String approve(URI authorization, Map<String, Object> claims) {
    return approve(authorization, claims, b -> b, key);
  }

  String approve(
      URI authorization,
      Map<String, Object> claims,
      UnaryOperator<JWTClaimsSet.Builder> tamper,
      RSAKey signer) {
    Map<String, String> q = query(authorization.getRawQuery());
    if (!"S256".equals(q.get("code_challenge_method")) || !CLIENT_ID.equals(q.get("client_id"))) {
      throw new AssertionError("not a PKCE S256 request of our client: " + q);
    }
    String code = UUID.randomUUID().toString();
    grants.put(
        code,
        new Grant(
            q.get("code_challenge"),
            q.get("redirect_uri"),
            q.get("nonce"),
            claims,
            tamper,
            signer));
    return code;
  }

  /** What the userinfo endpoint answers for the subject's access token. */
  void userInfo(String subject, Map<String, Object> claims) {
    userInfo.put(subject, claims);
  }

  private MockResponse answer(RecordedRequest request) throws Exception {
    String path = request.getRequestUrl().encodedPath();
    String base = "/realms/test";
    if (path.equals(base + "/.well-known/openid-configuration")) {
      return json(
          Map.of(
              "issuer",
              issuer(),
              "authorization_endpoint",
              issuer() + "/auth",
              "token_endpoint",
              issuer() + "/token",
              "jwks_uri",
              issuer() + "/certs",
              "userinfo_endpoint",
              issuer() + "/userinfo",
              "response_types_supported",
              new String[] {"code"},
              "subject_types_supported",
              new String[] {"public"},
              "id_token_signing_alg_values_supported",
              new String[] {"RS256"},
              "code_challenge_methods_supported",
              new String[] {"S256"}));
    }
    if (path.equals(base + "/certs")) {
      return new MockResponse()
          .setHeader("Content-Type", "application/json")
          .setBody("{\"keys\":[" + key.toPublicJWK().toJSONString() + "]}");
    }
    if (path.equals(base + "/token") && request.getMethod().equals("POST")) return token(request);
    if (path.equals(base + "/userinfo")) {
      String bearer = request.getHeader("Authorization");
      String subject = bearer == null ? null : bearer.replace("Bearer at-", "");
      Map<String, Object> info = subject == null ? null : userInfo.get(subject);
      return info == null ? new MockResponse().setResponseCode(401) : json(info);
    }
    return new MockResponse().setResponseCode(404);
  }

  private MockResponse token(RecordedRequest request) throws JOSEException {
    String basic =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((CLIENT_ID + ":" + CLIENT_SECRET).getBytes(StandardCharsets.UTF_8));
    if (!basic.equals(request.getHeader("Authorization"))) return error(401, "invalid_client");
    Map<String, String> form = query(request.getBody().readUtf8());
    Grant grant = grants.remove(form.getOrDefault("code", ""));
    if (grant == null || !"authorization_code".equals(form.get("grant_type")))
      return error(400, "invalid_grant");
    String verifier = form.getOrDefault("code_verifier", "");
    String challenge =
        CodeChallenge.compute(CodeChallengeMethod.S256, new CodeVerifier(verifier)).getValue();
    if (!challenge.equals(grant.challenge())
        || !grant.redirectUri().equals(form.get("redirect_uri"))) {
      return error(400, "invalid_grant");
    }
    Instant now = Instant.now();
    JWTClaimsSet.Builder claims =
        new JWTClaimsSet.Builder()
            .issuer(issuer())
            .audience(CLIENT_ID)
            .issueTime(Date.from(now))
            .expirationTime(Date.from(now.plusSeconds(300)))
            .claim("nonce", grant.nonce());
    grant.claims().forEach(claims::claim);
    SignedJWT idToken =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1").build(),
            grant.tamper().apply(claims).build());
    idToken.sign(new RSASSASigner(grant.signer()));
    return json(
        Map.of(
            "access_token",
            "at-" + grant.claims().get("sub"),
            "token_type",
            "Bearer",
            "id_token",
            idToken.serialize(),
            "expires_in",
            300));
  }

  static Map<String, String> query(String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw == null) return out;
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        out.put(
            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  static MockResponse json(Object body) {
    return new MockResponse()
        .setHeader("Content-Type", "application/json")
        .setBody(Json.text(body));
  }

  private static MockResponse error(int status, String code) {
    return json(Map.of("error", code)).setResponseCode(status);
  }

  static JsonNode tree(String body) throws Exception {
    return Json.MAPPER.readTree(body);
  }

  @Override
  public void close() throws Exception {
    server.shutdown();
  }
}
