package io.periscope;

import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import io.periscope.auth.Accounts;
import io.periscope.auth.Tokens;
import io.periscope.config.Settings;
import io.periscope.keys.KeyCipher;
import io.periscope.keys.KeyPoolEntity;
import io.periscope.keys.KeyPools;
import io.periscope.http.AdminRoutes;
import io.periscope.http.AuthRoutes;
import io.periscope.http.FixedWindowRateLimiter;
import io.periscope.http.HttpApi;
import io.periscope.http.SystemRoutes;
import io.periscope.http.WatchRoutes;
import io.periscope.runtime.Asks;
import io.periscope.runtime.Entities;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;
import java.util.concurrent.Executor;

/** The application's parts wired together over one actor system and one way of reaching entities. */
public final class Periscope {
  private final Settings settings;
  private final Tokens tokens;
  private final Accounts accounts;
  private final Entities entities;
  private final Asks asks;
  private final KeyPools keyPools;

  public Periscope(ActorSystem<?> system, Settings settings, Entities entities, Tokens tokens) {
    this.settings = settings;
    this.tokens = tokens;
    this.entities = entities;
    this.asks = new Asks(system, settings.askTimeout());
    Executor blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
    this.accounts = new Accounts(entities, asks, tokens, blocking);
    this.keyPools = new KeyPools(entities, asks, new KeyCipher(tokens.secret()), Clock.systemUTC());
  }

  /** Adds the operator's MODEL_API_KEYS and SEARCH_API_KEYS to their pools (idempotent, on every start). */
  public CompletionStage<Done> seedKeyPools() {
    Settings.Providers p = settings.providers();
    return keyPools.seed(KeyPoolEntity.MODEL, p.modelKeys())
        .thenCompose(done -> keyPools.seed(KeyPoolEntity.SEARCH, p.searchKeys()));
  }

  public Accounts accounts() {
    return accounts;
  }

  public HttpApi httpApi(Clock clock) {
    Settings.RateLimits limits = settings.rateLimits();
    FixedWindowRateLimiter authLimiter =
        new FixedWindowRateLimiter(limits.authPerIpPerMinute(), Duration.ofMinutes(1), clock);
    return new HttpApi(tokens, settings.webOrigins(),
        new SystemRoutes(settings),
        new AuthRoutes(accounts, authLimiter),
        new WatchRoutes(entities, asks, settings.maxBodyBytes()),
        new AdminRoutes(accounts, keyPools));
  }
}
