package io.periscope.watches;

import static io.periscope.entity.Refusal.Kind.CONFLICT;
import static io.periscope.entity.Refusal.Kind.NOT_FOUND;
import static io.periscope.entity.Refusal.Kind.UNAVAILABLE;
import static io.periscope.entity.Refusal.Kind.UNPROCESSABLE;
import static io.periscope.watch.WatchEntity.WATCH_NOT_FOUND;

import io.periscope.account.AccountEntity;
import io.periscope.account.AccountWatches;
import io.periscope.auth.Role;
import io.periscope.entity.Asks;
import io.periscope.entity.EntityRefusal;
import io.periscope.entity.Failures;
import io.periscope.entity.Refusal;
import io.periscope.json.ValidationException;
import io.periscope.notify.ChannelId;
import io.periscope.notify.ChannelPolicy;
import io.periscope.notify.WebhookSecrets;
import io.periscope.quota.QuotaPolicy;
import io.periscope.quota.Quotas;
import io.periscope.watch.Actor;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchVersion;
import io.periscope.watch.WatchVersions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.UnaryOperator;
import org.apache.pekko.Done;

/**
 * An owner's watches: list, read, create, replace, delete. A watch lives in two entities, its id
 * registered with its account ({@link AccountEntity}) and the watch itself ({@link WatchEntity});
 * this service is the one place that writes both, in the order that keeps them agreeing, and that
 * checks a watch before it is written: the channels its owner may use ({@link ChannelPolicy}) and
 * the account's quotas ({@link QuotaPolicy}), the number of watches reserved with the account
 * entity, which takes creates one at a time. Routes, the import and the command line ask it.
 */
public final class Watches {
  private final AccountEntity.Refs accounts;
  private final WatchEntity.Refs watches;
  private final ChannelPolicy channels;
  private final WebhookSecrets webhookSecrets;
  private final QuotaPolicy quotas;
  private final Asks asks;
  private final AccountWatches listing;

  public Watches(
      AccountEntity.Refs accounts,
      WatchEntity.Refs watches,
      ChannelPolicy channels,
      WebhookSecrets webhookSecrets,
      QuotaPolicy quotas,
      Asks asks) {
    this.accounts = accounts;
    this.watches = watches;
    this.channels = channels;
    this.webhookSecrets = webhookSecrets;
    this.quotas = quotas;
    this.asks = asks;
    this.listing = new AccountWatches(accounts, watches, asks);
  }

  /** The owner's watches, in creation order. */
  public CompletionStage<List<Watch>> list(String accountId) {
    return listing.live(accountId);
  }

  /** The owner's watch; {@code NOT_FOUND} when there is none. */
  public CompletionStage<Watch> get(String accountId, String id) {
    return asks.<WatchEntity.Command, Watch>ask(watches.watch(accountId, id), WatchEntity.Get::new)
        .exceptionally(Refusal.as(NOT_FOUND, WATCH_NOT_FOUND));
  }

  /** The owner's watch of that id, if there is one. */
  public CompletionStage<Optional<Watch>> find(String accountId, String id) {
    return asks.<WatchEntity.Command, Watch>ask(watches.watch(accountId, id), WatchEntity.Get::new)
        .thenApply(Optional::of)
        .exceptionally(e -> Failures.isRefusal(e) ? Optional.empty() : Failures.rethrow(e));
  }

  /**
   * Creates a validated watch for its owner, of {@code role}: checked as {@code plain} (its
   * channels as the owner named them), written as {@code stored} (their credentials sealed). Fails
   * with a {@link ValidationException} naming each channel the owner may not use or a schedule too
   * frequent, an {@link io.periscope.entity.OverQuota} past the account's quotas, and {@code
   * CONFLICT} when the owner has a watch of that id. {@code actor} makes it; {@code restoring} is
   * the version a restore makes current again (null for a create).
   */
  public CompletionStage<Watch> create(
      Role role, Watch plain, Watch stored, Actor actor, Integer restoring) {
    return checked(role, plain)
        .thenCompose(
            limits ->
                limits.maxWatches() == null
                    ? CompletableFuture.completedFuture(Done.getInstance())
                    : reserve(plain.owner(), plain.id(), limits.maxWatches()))
        .thenCompose(reserved -> signed(plain))
        .thenCompose(signed -> write(stored, actor, restoring));
  }

  /**
   * Registers the new watch's id with its account, which refuses it past {@code most} ids: the
   * count of live watches first lets two creates arriving at once both pass, the account entity
   * takes them one at a time. (Listing the live watches asks it to forget ids left by failed
   * creates first, so those do not take a place.)
   */
  private CompletionStage<Done> reserve(String accountId, String id, int most) {
    return list(accountId)
        .thenCompose(
            live -> {
              if (live.size() >= most && live.stream().noneMatch(w -> w.id().equals(id)))
                throw QuotaPolicy.watchesFull(most);
              return asks.<AccountEntity.Command, Done>ask(
                  accounts.account(accountId), r -> new AccountEntity.AddWatch(id, most, r));
            })
        .exceptionally(
            failure -> {
              if (EntityRefusal.is(failure, EntityRefusal.Code.NO_ROOM_FOR_WATCH))
                throw QuotaPolicy.watchesFull(most);
              return Failures.rethrow(failure);
            });
  }

  /**
   * Writes a watch checked already (an import checks every watch before it writes any): its id
   * registered with its account and the watch created; {@code CONFLICT} when the owner has a watch
   * of that id; {@code actor} and {@code restoring} as {@link #create}.
   */
  public CompletionStage<Watch> write(Watch watch, Actor actor, Integer restoring) {
    String accountId = watch.owner();
    // The id is registered with the owner and the watch created at once; the answer waits for both,
    // so the watch is always in the next list. Every attempt registers (idempotently), so a create
    // cut short by a crash is listed once the client retries, even when the retry is refused; an id
    // whose create failed is skipped by the list because its entity holds no watch.
    CompletableFuture<Done> registered = register(accountId, watch.id()).toCompletableFuture();
    CompletableFuture<Watch> created =
        asks.<WatchEntity.Command, Watch>ask(
                watches.watch(accountId, watch.id()),
                r -> new WatchEntity.Create(watch, actor, restoring, r))
            .toCompletableFuture();
    // Registered once more after the watch exists: a delete of the same id racing this create may
    // have unregistered it meanwhile (AccountEntity), and this registration waits for that delete.
    return CompletableFuture.allOf(registered, created)
        .thenCompose(both -> register(accountId, watch.id()))
        .thenApply(again -> created.join())
        .exceptionally(Refusal.as(CONFLICT));
  }

  private CompletionStage<Done> register(String accountId, String id) {
    return asks.<AccountEntity.Command, Done>ask(
        accounts.account(accountId), r -> new AccountEntity.AddWatch(id, r));
  }

  /**
   * Replaces the owner's watch of that id, checked ({@code plain}) and written ({@code stored}) as
   * a create is, but for the number of watches; {@code NOT_FOUND} when there is none. {@code actor}
   * and {@code restoring} as {@link #create}.
   */
  public CompletionStage<Watch> replace(
      Role role, Watch plain, Watch stored, Actor actor, Integer restoring) {
    return checked(role, plain)
        .thenCompose(limits -> signed(plain))
        .thenCompose(
            signed ->
                asks.<WatchEntity.Command, Watch>ask(
                    watches.watch(stored.owner(), stored.id()),
                    r -> new WatchEntity.Replace(stored, actor, restoring, r)))
        .exceptionally(Refusal.as(NOT_FOUND, WATCH_NOT_FOUND));
  }

  /**
   * Each webhook the watch names has its signing secret once the watch is saved, so its owner can
   * set the receiver up before the first alert; one that cannot be made now is made at the first
   * delivery.
   */
  private CompletionStage<Done> signed(Watch plain) {
    CompletableFuture<?>[] made =
        plain.channels().stream()
            .map(ChannelId::parse)
            .flatMap(Optional::stream)
            .filter(c -> c.kind() == ChannelId.Kind.WEBHOOK)
            .map(
                c ->
                    webhookSecrets
                        .secret(plain.owner(), c.target())
                        .toCompletableFuture()
                        .exceptionally(e -> Optional.empty()))
            .toArray(CompletableFuture[]::new);
    return CompletableFuture.allOf(made).thenApply(all -> Done.getInstance());
  }

  /**
   * The account's limits once {@code watch} passed the checks before any write: the channels its
   * owner may use, then the account's quotas but the number of watches.
   */
  private CompletionStage<Quotas> checked(Role role, Watch watch) {
    return channels
        .require(watch.owner(), watch.channels())
        .thenCompose(ok -> quotas.check(watch.owner(), role, watch));
  }

  /**
   * Deletes the owner's watch through its account, which unregisters the id once the watch is gone:
   * {@code NOT_FOUND} when there is none, {@code UNAVAILABLE} when the watch did not answer.
   */
  public CompletionStage<Done> delete(String accountId, String id, Actor actor) {
    return asks.<AccountEntity.Command, Done>ask(
            accounts.account(accountId), r -> new AccountEntity.DeleteWatch(id, actor, r))
        .exceptionally(
            e -> {
              if (EntityRefusal.is(e, EntityRefusal.Code.WATCH_UNANSWERED))
                throw new Refusal(UNAVAILABLE, AccountEntity.WATCH_UNANSWERED);
              return Refusal.<Done>as(NOT_FOUND, WATCH_NOT_FOUND).apply(e);
            });
  }

  /**
   * The kept versions of the owner's watch's definition, oldest first, also after it was deleted;
   * {@code NOT_FOUND} when it never existed.
   */
  public CompletionStage<List<WatchVersion>> versions(String accountId, String id) {
    return asks.<WatchEntity.Command, WatchVersions.Kept>ask(
            watches.watch(accountId, id), WatchEntity.GetVersions::new)
        .thenApply(WatchVersions.Kept::versions)
        .exceptionally(Refusal.as(NOT_FOUND, WATCH_NOT_FOUND));
  }

  /**
   * Makes version {@code version} of the owner's watch current again, as a new version recorded as
   * a restore by {@code actor}: a replace of the watch, or its create again when it was deleted,
   * checked as those are ({@code opened} gives a stored definition its channels as the owner named
   * them). {@code NOT_FOUND} when the watch never existed or the version is not kept, {@code
   * UNPROCESSABLE} for the version of a delete, which holds no definition.
   */
  public CompletionStage<Watch> restore(
      Role role,
      String accountId,
      String id,
      int version,
      Actor actor,
      UnaryOperator<Watch> opened) {
    return versions(accountId, id)
        .thenCompose(
            kept -> {
              WatchVersion wanted =
                  WatchVersions.find(kept, version)
                      .orElseThrow(() -> new Refusal(NOT_FOUND, "version not found"));
              if (wanted.watch() == null)
                throw new Refusal(
                    UNPROCESSABLE, "version " + version + " is a delete: it holds no definition");
              Watch stored = wanted.watch();
              Watch plain = opened.apply(stored);
              return find(accountId, id)
                  .thenCompose(
                      current ->
                          current.isPresent()
                              ? replace(role, plain, stored, actor, version)
                              : create(role, plain, stored, actor, version));
            });
  }
}
