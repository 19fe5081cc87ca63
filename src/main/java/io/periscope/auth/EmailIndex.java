package io.periscope.auth;

import io.periscope.crypto.Sha256;
import io.periscope.entity.Asks;
import io.periscope.entity.EntityIds;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.Failures;
import java.time.Instant;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/**
 * Which account holds an e-mail address, through the {@link EmailEntity} of the address. The entity
 * id is the SHA-256 of the normalized address: whatever an address contains, its id is 64 hex
 * digits, which no journal or shard can choke on.
 *
 * <p>Journals of earlier versions keyed the entity by the address itself. Those entities are still
 * read: an address the digest entity does not know is looked up under its old id, and when an
 * account holds it there, the holding is copied to the digest entity (so each address moves once,
 * on its first use). A claim checks the old id too, so an address held there is never given to a
 * second account. Nothing is ever claimed under an old id again.
 */
public final class EmailIndex {
  private final EmailEntity.Refs emailEntities;
  private final Asks asks;

  public EmailIndex(EmailEntity.Refs emailEntities, Asks asks) {
    this.emailEntities = emailEntities;
    this.asks = asks;
  }

  /** The entity id of a normalized address. */
  public static String entityId(String normalizedEmail) {
    return HexFormat.of().formatHex(Sha256.of(normalizedEmail));
  }

  /** The account holding the address; fails with {@link EntityRefusal} when none does. */
  public CompletionStage<String> holder(String normalizedEmail) {
    return asks.<EmailEntity.Command, String>ask(
            emailEntities.email(entityId(normalizedEmail)), EmailEntity.Lookup::new)
        .exceptionallyCompose(
            e ->
                Failures.isRefusal(e)
                    ? legacyHolder(normalizedEmail)
                        .thenCompose(
                            accountId ->
                                claim(normalizedEmail, accountId).thenApply(took -> accountId))
                    : CompletableFuture.failedFuture(e));
  }

  /**
   * Claims the address for {@code accountId}: answers whether this call took it; fails with {@link
   * EntityRefusal} when another account holds it.
   */
  public CompletionStage<Boolean> claim(String normalizedEmail, String accountId) {
    return legacyHolder(normalizedEmail)
        .handle(
            (holder, failure) -> {
              if (failure != null && !Failures.isRefusal(failure))
                return CompletableFuture.<Boolean>failedFuture(failure);
              if (holder != null && !holder.equals(accountId))
                return CompletableFuture.<Boolean>failedFuture(
                    new EntityRefusal("the e-mail address is already in use"));
              return asks.<EmailEntity.Command, Boolean>ask(
                  emailEntities.email(entityId(normalizedEmail)),
                  reply -> new EmailEntity.Claim(accountId, reply));
            })
        .thenCompose(stage -> stage);
  }

  /** Remembers that the address's account signed in from {@code network}. */
  public CompletionStage<Done> rememberSignIn(String normalizedEmail, String network) {
    return asks.ask(
        emailEntities.email(entityId(normalizedEmail)),
        reply -> new EmailEntity.RememberSignIn(network, reply));
  }

  /** Whether the address's account signed in from {@code network} before. */
  public CompletionStage<Boolean> signedInBefore(String normalizedEmail, String network) {
    return asks.ask(
        emailEntities.email(entityId(normalizedEmail)),
        reply -> new EmailEntity.SignedInBefore(network, reply));
  }

  /** Frees the address when {@code accountId} holds it. */
  public CompletionStage<Done> release(String normalizedEmail, String accountId) {
    return asks.ask(
        emailEntities.email(entityId(normalizedEmail)),
        reply -> new EmailEntity.Release(accountId, reply));
  }

  /**
   * Reserves one mail to the address now; fails with {@link EntityRefusal} while the address has
   * had its mail for now ({@link EmailEntity#MAIL_COOLDOWN}, {@link EmailEntity#MAILS_PER_DAY}).
   */
  public CompletionStage<Done> reserveMail(String normalizedEmail, Instant now) {
    return asks.ask(
        emailEntities.email(entityId(normalizedEmail)),
        reply -> new EmailEntity.ReserveMail(now, reply));
  }

  /** Keeps an invitation to the address; fails with {@link EntityRefusal} while it is held. */
  public CompletionStage<Done> invite(String normalizedEmail, EmailEntity.Invitation invitation) {
    return asks.ask(
        emailEntities.email(entityId(normalizedEmail)),
        reply -> new EmailEntity.Invite(invitation, reply));
  }

  /** Fails with {@link EntityRefusal} unless the address's live invitation has this hash. */
  public CompletionStage<Done> checkInvitation(
      String normalizedEmail, String tokenHash, Instant now) {
    return asks.ask(
        emailEntities.email(entityId(normalizedEmail)),
        reply -> new EmailEntity.CheckInvitation(tokenHash, now, reply));
  }

  /**
   * The holder under the address itself, as earlier versions keyed it. An address that cannot be an
   * entity id never had such an entity (it could not be created).
   */
  private CompletionStage<String> legacyHolder(String normalizedEmail) {
    if (!EntityIds.valid(normalizedEmail))
      return CompletableFuture.failedFuture(new EntityRefusal("unknown e-mail"));
    return asks.ask(emailEntities.email(normalizedEmail), EmailEntity.Lookup::new);
  }
}
