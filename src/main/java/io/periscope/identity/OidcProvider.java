package io.periscope.identity;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.auth.ClientAuthenticationMethod;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import io.periscope.auth.ProviderIdentity;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import okhttp3.OkHttpClient;

/**
 * Any OpenID Connect provider, from its issuer: the discovery document ({@code
 * <issuer>/.well-known/openid-configuration}, whose issuer must be exactly the configured one)
 * gives the endpoints; the ID token is verified against the provider's JWK set (signature by an
 * asymmetric algorithm the provider lists, issuer, audience, expiry, nonce). The address comes from
 * the ID token's {@code email} and {@code email_verified} claims, or from the userinfo endpoint
 * when the token carries none (its {@code sub} must be the token's). Discovery and keys are read on
 * every sign-in: sign-ins are rare, and a rotated key is picked up at once.
 */
final class OidcProvider implements IdentityProvider {
  private static final List<JWSAlgorithm.Family> ASYMMETRIC =
      List.of(JWSAlgorithm.Family.RSA, JWSAlgorithm.Family.EC, JWSAlgorithm.Family.ED);

  private final IdentityProviderSettings.Oidc settings;
  private final IdentityHttp http;

  OidcProvider(IdentityProviderSettings.Oidc settings, OkHttpClient client) {
    this.settings = settings;
    this.http = new IdentityHttp(client, "identity provider '" + settings.name() + "'");
  }

  @Override
  public String name() {
    return settings.name();
  }

  @Override
  public CompletionStage<URI> authorizationUri(SignInFlow flow, URI redirectUri) {
    return metadata()
        .thenApply(
            m ->
                new AuthenticationRequest.Builder(
                        ResponseType.CODE,
                        Scope.parse(settings.scopes()),
                        new ClientID(settings.clientId()),
                        redirectUri)
                    .endpointURI(m.getAuthorizationEndpointURI())
                    .state(new State(flow.state()))
                    .nonce(new Nonce(flow.nonce()))
                    .codeChallenge(new CodeVerifier(flow.codeVerifier()), CodeChallengeMethod.S256)
                    .build()
                    .toURI());
  }

  @Override
  public CompletionStage<ProviderIdentity> identity(String code, SignInFlow flow, URI redirectUri) {
    return metadata()
        .thenCompose(
            m ->
                exchange(m, code, flow, redirectUri)
                    .thenCompose(
                        tokens ->
                            http.get(m.getJWKSetURI().toString(), Map.of())
                                .thenCompose(
                                    keys -> {
                                      IDTokenClaimsSet claims =
                                          validate(
                                              m, tokens.path("id_token").asText(""), keys, flow);
                                      String subject = claims.getSubject().getValue();
                                      CompletionStage<String> email =
                                          claims.getStringClaim("email") != null
                                              ? CompletableFuture.completedFuture(
                                                  verified(claims.toJSONObject()))
                                              : userInfo(
                                                  m,
                                                  tokens.path("access_token").asText(""),
                                                  subject);
                                      String username = claims.getStringClaim("preferred_username");
                                      return email.thenApply(
                                          address ->
                                              new ProviderIdentity(
                                                  settings.name(),
                                                  m.getIssuer().getValue(),
                                                  subject,
                                                  address,
                                                  username == null || username.isBlank()
                                                      ? address
                                                      : username));
                                    })));
  }

  private CompletionStage<OIDCProviderMetadata> metadata() {
    // The issuer is compared exactly (some end in '/'); the discovery path goes after it either
    // way.
    String base =
        settings.issuer().endsWith("/")
            ? settings.issuer().substring(0, settings.issuer().length() - 1)
            : settings.issuer();
    return http.get(base + "/.well-known/openid-configuration", Map.of())
        .thenApply(
            json -> {
              try {
                OIDCProviderMetadata m = OIDCProviderMetadata.parse(json.toString());
                if (!m.getIssuer().getValue().equals(settings.issuer())) {
                  throw new SignInFailure(
                      SignInFailure.Reason.UNAVAILABLE,
                      "the discovery document of '" + settings.name() + "' names another issuer");
                }
                return m;
              } catch (ParseException e) {
                throw new SignInFailure(
                    SignInFailure.Reason.UNAVAILABLE,
                    "the discovery document of '"
                        + settings.name()
                        + "' cannot be read: "
                        + e.getMessage());
              }
            });
  }

  /**
   * The code for tokens, authenticated with the client secret (HTTP Basic unless the provider only
   * takes a form field).
   */
  private CompletionStage<JsonNode> exchange(
      OIDCProviderMetadata m, String code, SignInFlow flow, URI redirectUri) {
    Map<String, String> form =
        new HashMap<>(
            Map.of(
                "grant_type",
                "authorization_code",
                "code",
                code,
                "redirect_uri",
                redirectUri.toString(),
                "code_verifier",
                flow.codeVerifier(),
                "client_id",
                settings.clientId()));
    Map<String, String> headers = new HashMap<>(Map.of("Accept", "application/json"));
    List<ClientAuthenticationMethod> methods = m.getTokenEndpointAuthMethods();
    boolean formOnly =
        methods != null
            && !methods.contains(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
            && methods.contains(ClientAuthenticationMethod.CLIENT_SECRET_POST);
    if (formOnly) {
      form.put("client_secret", settings.clientSecret());
    } else {
      String user = URLEncoder.encode(settings.clientId(), StandardCharsets.UTF_8);
      String password = URLEncoder.encode(settings.clientSecret(), StandardCharsets.UTF_8);
      headers.put(
          "Authorization",
          "Basic "
              + Base64.getEncoder()
                  .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }
    return http.postForm(m.getTokenEndpointURI().toString(), form, headers);
  }

  private IDTokenClaimsSet validate(
      OIDCProviderMetadata m, String idToken, JsonNode keys, SignInFlow flow) {
    try {
      JWT jwt = JWTParser.parse(idToken);
      if (!(jwt instanceof SignedJWT signed)) throw invalid("the ID token is not signed");
      JWSAlgorithm algorithm = signed.getHeader().getAlgorithm();
      boolean listed = m.getIDTokenJWSAlgs() == null || m.getIDTokenJWSAlgs().contains(algorithm);
      if (!listed || ASYMMETRIC.stream().noneMatch(f -> f.contains(algorithm))) {
        throw invalid("the ID token is signed with " + algorithm + ", which is not accepted");
      }
      IDTokenValidator validator =
          new IDTokenValidator(
              m.getIssuer(),
              new ClientID(settings.clientId()),
              algorithm,
              JWKSet.parse(keys.toString()));
      return validator.validate(jwt, new Nonce(flow.nonce()));
    } catch (java.text.ParseException e) {
      throw invalid("the ID token or the key set cannot be read");
    } catch (BadJOSEException | JOSEException e) {
      throw invalid("the ID token failed verification: " + e.getMessage());
    }
  }

  private CompletionStage<String> userInfo(
      OIDCProviderMetadata m, String accessToken, String subject) {
    if (m.getUserInfoEndpointURI() == null || accessToken.isEmpty()) {
      throw new SignInFailure(
          SignInFailure.Reason.UNVERIFIED_EMAIL,
          "'" + settings.name() + "' gave no e-mail address (ask for the 'email' scope)");
    }
    return http.get(
            m.getUserInfoEndpointURI().toString(),
            Map.of("Authorization", "Bearer " + accessToken, "Accept", "application/json"))
        .thenApply(
            info -> {
              if (!subject.equals(info.path("sub").asText(null)))
                throw invalid("the userinfo answer is another user's");
              return verified(io.periscope.json.Json.MAPPER.convertValue(info, Map.class));
            });
  }

  /**
   * The address when the provider marks it verified ({@code true}, or the string {@code "true"}
   * some send).
   */
  private String verified(Map<?, ?> claims) {
    Object email = claims.get("email");
    Object flag = claims.get("email_verified");
    boolean isVerified = Boolean.TRUE.equals(flag) || "true".equals(flag);
    if (!(email instanceof String address) || address.isBlank() || !isVerified) {
      throw new SignInFailure(
          SignInFailure.Reason.UNVERIFIED_EMAIL,
          "'" + settings.name() + "' did not vouch for a verified e-mail address");
    }
    return address;
  }

  private static SignInFailure invalid(String message) {
    return new SignInFailure(SignInFailure.Reason.INVALID_ANSWER, message);
  }
}
