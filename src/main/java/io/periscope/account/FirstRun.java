package io.periscope.account;

import io.periscope.auth.Principal;
import io.periscope.auth.Role;
import io.periscope.entity.Refusal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The first administrator of an instance that has no account yet, made through the one-time setup
 * link the start prints ({@code PUBLIC_URL/setup#token=...}). The token is this process's own: it
 * holds until it is used or the process ends, and once any account exists it opens nothing.
 */
public final class FirstRun {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Accounts accounts;
  private final AccountAdmin admin;
  private final String token;

  /** One setup at a time on this node: the check for accounts and the create are not atomic. */
  private final AtomicBoolean busy = new AtomicBoolean();

  /** An account exists: that never changes back, so it is not asked again. */
  private volatile boolean settled;

  public FirstRun(Accounts accounts, AccountAdmin admin) {
    this.accounts = accounts;
    this.admin = admin;
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    this.token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** Refused: a setup link that is not this start's. */
  public static final class WrongLink extends Refusal {
    WrongLink() {
      super(
          Kind.FORBIDDEN,
          "this setup link is not the one this start printed: use the newest link in the"
              + " service's output");
    }
  }

  /** Refused: the instance has an account already. */
  public static final class SetUp extends Refusal {
    SetUp() {
      super(Kind.CONFLICT, "this instance has its first administrator already: sign in");
    }
  }

  /** Whether no account exists yet, so the setup link still opens. */
  public CompletionStage<Boolean> open() {
    if (settled) return CompletableFuture.completedFuture(false);
    return accounts
        .accounts()
        .thenApply(
            all -> {
              if (!all.isEmpty()) settled = true;
              return all.isEmpty();
            });
  }

  /** The setup link under the service's public address. */
  public String link(String publicUrl) {
    return publicUrl.replaceAll("/+$", "") + "/setup#token=" + token;
  }

  /**
   * Makes the first administrator and signs it in.
   *
   * @throws io.periscope.json.ValidationException for a bad id, address or password
   */
  public CompletionStage<Accounts.Session> create(
      String presented, String id, String email, String password) {
    if (presented == null
        || !MessageDigest.isEqual(
            presented.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8)))
      return CompletableFuture.failedFuture(new WrongLink());
    Accounts.NewAccount request = Accounts.validate(id, email, Role.ADMIN.wire(), password);
    if (!busy.compareAndSet(false, true)) return CompletableFuture.failedFuture(new SetUp());
    return open()
        .thenCompose(
            none -> {
              if (!none) throw new SetUp();
              return admin.create(Principal.SETUP_LINK, request);
            })
        .thenCompose(
            account -> {
              settled = true;
              return accounts.login(request.email(), password);
            })
        .thenApply(session -> session.orElseThrow(SetUp::new))
        .whenComplete((session, failure) -> busy.set(false));
  }
}
