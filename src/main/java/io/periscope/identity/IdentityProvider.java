package io.periscope.identity;

import io.periscope.auth.ProviderIdentity;
import java.net.URI;
import java.util.concurrent.CompletionStage;

/** One identity provider's authorization-code flow, with PKCE (S256). */
interface IdentityProvider {
  String name();

  /**
   * Where the browser goes to sign in, carrying the flow's state, code challenge and (OIDC) nonce.
   */
  CompletionStage<URI> authorizationUri(SignInFlow flow, URI redirectUri);

  /**
   * Exchanges the code and answers who signed in, with the e-mail address the provider vouches for
   * as verified; fails with {@link SignInFailure} otherwise.
   */
  CompletionStage<ProviderIdentity> identity(String code, SignInFlow flow, URI redirectUri);
}
