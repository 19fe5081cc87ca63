package io.periscope.channels;

import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.keys.Reencryption;
import io.periscope.persistence.JournalReads;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/**
 * Seals every watch's channel credentials anew under the newest key of ENCRYPTION_KEY ({@code keys
 * re-encrypt}), one watch after the other, and seals those an earlier version stored in plain text.
 * A credential no configured key can read is counted undecryptable and left: its owner writes it
 * again.
 */
public final class ChannelReencryption {
  private final SealedChannels sealed;
  private final JournalReads journal;
  private final WatchEntity.Refs watches;
  private final Asks asks;

  /**
   * @param journal finds every watch that ever existed
   */
  public ChannelReencryption(
      SealedChannels sealed, JournalReads journal, WatchEntity.Refs watches, Asks asks) {
    this.sealed = sealed;
    this.journal = journal;
    this.watches = watches;
    this.asks = asks;
  }

  public CompletionStage<Reencryption.Result> reencrypt() {
    return journal
        .entityIds(WatchEntity.TYPE_KEY.name())
        .thenCompose(
            ids -> {
              CompletionStage<Reencryption.Result> done =
                  CompletableFuture.completedFuture(Reencryption.Result.NONE);
              for (String id : ids) {
                int colon = id.indexOf(':');
                if (colon < 0) continue;
                done =
                    done.thenCompose(
                        sum ->
                            watch(id.substring(0, colon), id.substring(colon + 1))
                                .thenApply(sum::plus));
              }
              return done;
            });
  }

  private CompletionStage<Reencryption.Result> watch(String accountId, String id) {
    return asks.<WatchEntity.Command, Watch>ask(watches.watch(accountId, id), WatchEntity.Get::new)
        .handle((watch, failure) -> watch)
        .thenCompose(
            watch -> {
              if (watch == null) return CompletableFuture.completedFuture(Reencryption.Result.NONE);
              Reencryption.Result counted = Reencryption.Result.NONE;
              List<String> resealed = new ArrayList<>();
              for (String channel : watch.channels()) {
                String now = channel;
                if (sealed.current(channel)) {
                  counted = counted.plus(new Reencryption.Result(0, 1, 0));
                } else {
                  try {
                    now = sealed.seal(sealed.open(channel));
                    counted = counted.plus(new Reencryption.Result(1, 0, 0));
                  } catch (IllegalStateException undecryptable) {
                    counted = counted.plus(new Reencryption.Result(0, 0, 1));
                  }
                }
                resealed.add(now);
              }
              Reencryption.Result result = counted;
              if (resealed.equals(watch.channels()))
                return CompletableFuture.completedFuture(result);
              return asks.<WatchEntity.Command, Done>ask(
                      watches.watch(accountId, id),
                      r -> new WatchEntity.ResealChannels(watch.channels(), resealed, r))
                  .thenApply(ok -> result)
                  .exceptionally(e -> Failures.isRefusal(e) ? result : Failures.rethrow(e));
            });
  }
}
