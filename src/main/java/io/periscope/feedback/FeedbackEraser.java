package io.periscope.feedback;

import io.periscope.account.AccountDataEraser;
import io.periscope.persistence.JournalErasure;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/**
 * A deleted account's feedback on its watches' runs is erased from the journal, whatever happens to
 * the run history: it is the owner's own judgement, and no watch of the account writes again.
 */
public final class FeedbackEraser implements AccountDataEraser {
  private final JournalErasure erasure;

  public FeedbackEraser(JournalErasure erasure) {
    this.erasure = erasure;
  }

  @Override
  public CompletionStage<Done> erase(
      String accountId, List<String> watchIds, boolean eraseHistory) {
    return erasure.erase(
        FeedbackEntity.TYPE_KEY.name(),
        watchIds.stream().map(id -> FeedbackEntity.entityId(accountId, id)).toList());
  }
}
