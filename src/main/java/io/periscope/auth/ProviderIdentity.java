package io.periscope.auth;

import io.periscope.crypto.Sha256;
import java.util.HexFormat;

/**
 * Who an identity provider says signed in: the account at the provider, named by the provider's
 * issuer and its subject for the user (OIDC's {@code iss} and {@code sub}, GitHub's API and user
 * id), and the address it vouches for as verified. An account is bound to the first three, never to
 * the address, which a provider may let anyone claim.
 *
 * @param login the name the person goes by at the provider (GitHub's login, OpenID Connect's {@code
 *     preferred_username}, else the address), shown to the account's holder before linking
 */
public record ProviderIdentity(
    String provider, String issuer, String subject, String email, String login) {
  /** The id of its {@link IdentityLinkEntity}: a digest, whatever the provider's strings hold. */
  public String linkId() {
    return HexFormat.of().formatHex(Sha256.of(String.join("\n", provider, issuer, subject)));
  }

  @Override
  public String toString() {
    return "ProviderIdentity[" + provider + "]"; // the subject and the address identify a person
  }
}
