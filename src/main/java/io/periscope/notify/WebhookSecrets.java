package io.periscope.notify;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Where the webhook channel finds the secret each of an owner's webhooks is signed with. */
@FunctionalInterface
public interface WebhookSecrets {
  /** Nobody has a secret: every webhook goes unsigned (the operator's ADMIN_CHANNELS). */
  WebhookSecrets NONE = (accountId, url) -> CompletableFuture.completedFuture(Optional.empty());

  /**
   * The {@code whsec_…} secret in plain text that signs the owner's webhook to {@code url} (made
   * when it has none), empty for an unsigned webhook; fails when it cannot be read (then nothing is
   * sent, rather than an unsigned message a receiver would drop).
   */
  CompletionStage<Optional<String>> secret(String accountId, String url);
}
