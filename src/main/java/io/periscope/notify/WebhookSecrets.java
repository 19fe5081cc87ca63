package io.periscope.notify;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Where the webhook channel finds the secret an owner's webhooks are signed with. */
@FunctionalInterface
public interface WebhookSecrets {
  /** Nobody has a secret: every webhook goes unsigned. */
  WebhookSecrets NONE = owner -> CompletableFuture.completedFuture(Optional.empty());

  /**
   * The owner's {@code whsec_…} secret in plain text, empty when they have none; fails when it
   * cannot be read (then nothing is sent, rather than an unsigned message a receiver would drop).
   */
  CompletionStage<Optional<String>> secret(String owner);
}
