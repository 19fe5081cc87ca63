package io.periscope;

import com.typesafe.config.Config;
import io.micrometer.core.instrument.MeterRegistry;
import io.periscope.account.AccountAccess;
import io.periscope.account.AccountAdmin;
import io.periscope.account.AccountMails;
import io.periscope.account.Accounts;
import io.periscope.account.FirstRun;
import io.periscope.account.IdentityLinks;
import io.periscope.account.OnDemandRuns;
import io.periscope.account.OwnAccount;
import io.periscope.account.Registration;
import io.periscope.account.SelfService;
import io.periscope.account.UnverifiedAccounts;
import io.periscope.assist.Assistant;
import io.periscope.assist.DomainLiveness;
import io.periscope.auth.MailBudget;
import io.periscope.auth.SignInBackoff;
import io.periscope.auth.Tokens;
import io.periscope.backtest.BacktestJobs;
import io.periscope.backtest.Backtester;
import io.periscope.channels.ChannelAddresses;
import io.periscope.channels.ChannelPermissions;
import io.periscope.channels.ChannelReencryption;
import io.periscope.channels.ChannelsEraser;
import io.periscope.channels.SealedChannels;
import io.periscope.channels.TestSends;
import io.periscope.channels.WebhookSecretStore;
import io.periscope.config.Settings;
import io.periscope.devices.DevicesEraser;
import io.periscope.devices.Vapid;
import io.periscope.devices.VapidKeys;
import io.periscope.devices.WebPushSender;
import io.periscope.entity.Asks;
import io.periscope.feedback.FeedbackEraser;
import io.periscope.feedback.Feedbacks;
import io.periscope.http.AccountRoutes;
import io.periscope.http.AdminRoutes;
import io.periscope.http.AssistRoutes;
import io.periscope.http.AuthRoutes;
import io.periscope.http.BacktestRoutes;
import io.periscope.http.ChannelRoutes;
import io.periscope.http.ClientAddresses;
import io.periscope.http.CollectionRoutes;
import io.periscope.http.DeviceRoutes;
import io.periscope.http.DryRunRoutes;
import io.periscope.http.FeedbackRoutes;
import io.periscope.http.HttpApi;
import io.periscope.http.OpenApiRoutes;
import io.periscope.http.QuotaRoutes;
import io.periscope.http.SourceRoutes;
import io.periscope.http.SystemRoutes;
import io.periscope.http.TransferRoutes;
import io.periscope.http.TrustRoutes;
import io.periscope.http.UsageRoutes;
import io.periscope.http.VersionRoutes;
import io.periscope.http.WatchRoutes;
import io.periscope.identity.IdentityProviderSettings;
import io.periscope.identity.IdentitySignIn;
import io.periscope.keys.KeyCipher;
import io.periscope.keys.KeyPoolAdmin;
import io.periscope.keys.KeyPoolEntity;
import io.periscope.keys.KeyPoolMeters;
import io.periscope.keys.KeyPools;
import io.periscope.keys.Reencryption;
import io.periscope.llm.ModelChoice;
import io.periscope.llm.ModelConfigs;
import io.periscope.llm.ModelConfiguration;
import io.periscope.llm.ModelMeters;
import io.periscope.llm.PooledModel;
import io.periscope.llm.UsageEraser;
import io.periscope.llm.UsageLedger;
import io.periscope.metrics.Metrics;
import io.periscope.net.SafeHttp;
import io.periscope.net.UpstreamClients;
import io.periscope.notify.AdminAlerts;
import io.periscope.notify.AlertBudget;
import io.periscope.notify.EmailSender;
import io.periscope.notify.Notifier;
import io.periscope.notify.NotifyMeters;
import io.periscope.notify.RepeatedAlerts;
import io.periscope.notify.SmtpSettings;
import io.periscope.persistence.JournalErasure;
import io.periscope.persistence.JournalReads;
import io.periscope.quota.BudgetNotices;
import io.periscope.quota.QuotaPolicy;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import io.periscope.ratelimit.HeldSlots;
import io.periscope.run.AccountGate;
import io.periscope.run.DryRuns;
import io.periscope.run.EntityRunAll;
import io.periscope.run.Pipeline;
import io.periscope.run.RunAllJob;
import io.periscope.run.RunSlots;
import io.periscope.runtime.Entities;
import io.periscope.runtime.Serving;
import io.periscope.source.ArticleExtractor;
import io.periscope.source.BrowserRenderer;
import io.periscope.source.CollectionBudget;
import io.periscope.source.CollectionLimits;
import io.periscope.source.FeedCollector;
import io.periscope.source.FeedFinder;
import io.periscope.source.PageCollector;
import io.periscope.source.SearchProvider;
import io.periscope.source.SearchProviders;
import io.periscope.transfer.Transfers;
import io.periscope.trust.TrustRules;
import io.periscope.trust.TrustRulesEntity;
import io.periscope.watch.RunPages;
import io.periscope.watch.RunRecord;
import io.periscope.watch.WakeUpStartup;
import io.periscope.watches.WatchWarnings;
import io.periscope.watches.Watches;
import io.periscope.web.WebAssets;
import io.periscope.web.WebRoutes;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import okhttp3.OkHttpClient;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;

/**
 * The application's parts wired together over one actor system and one way of reaching entities.
 */
public final class Periscope {
  private final Settings settings;
  private final Registration registration;
  private final Metrics metrics;
  private final NotifyMeters notifyMeters;
  private final ModelMeters modelMeters;

  /** Streams the backtests run on. */
  private final ActorSystem<?> system;

  private final Serving serving;
  private final Tokens tokens;
  private final Accounts accounts;
  private final Entities entities;
  private final Asks asks;
  private final KeyPools keyPools;
  private final OkHttpClient trusted;
  private final AdminAlerts adminAlerts;
  private final ModelConfigs models;
  private final Optional<SearchProvider> search;
  private final Vapid vapid;
  private final Reencryption reencryption;
  private final Clock clock;
  private final AccountAccess sessions;
  private final SelfService selfService;
  private final IdentityLinks identityLinks;
  private final FirstRun firstRun;
  private final ChannelPermissions channelPolicy;
  private final ChannelAddresses channelAddresses;
  private final WebhookSecretStore webhookSecrets;
  private final SealedChannels sealedChannels;
  private final ChannelReencryption channelReencryption;
  private final TestSends testSends;

  /** The runs of watches, without the gate and slots of scheduled ones: dry runs go through it. */
  private final Pipeline pipeline;

  private final PageCollector pages;

  private final IdentitySignIn identitySignIn;
  private final OnDemandRuns runs;
  private final QuotaPolicy quotas;
  private final UsageLedger usage;
  private final Transfers transfers;
  private final Watches watches;
  private final AccountAdmin accountAdmin;
  private final RunPages runPages;
  private final FeedFinder feedFinder;
  private final Feedbacks feedbacks;

  /**
   * Backtests of candidate judgements, as the routes' answers and as the backtest entities' jobs.
   */
  private final Backtester backtester;

  /** Where bcrypt and other blocking work runs, never on the actor dispatcher. */
  private final Executor blocking;

  private final JournalErasure erasure;

  public Periscope(ActorSystem<?> system, Config config, Entities entities, Tokens tokens) {
    this(system, config, entities, tokens, Clock.systemUTC());
  }

  /**
   * @param clock "now" for schedules: tests move it by hand
   */
  public Periscope(
      ActorSystem<?> system, Config config, Entities entities, Tokens tokens, Clock clock) {
    this.system = system;
    this.settings = Settings.from(config);
    this.metrics = Metrics.get(system);
    this.serving = Serving.get(system);
    this.clock = clock;
    this.tokens = tokens;
    this.entities = entities;
    this.asks = new Asks(system, settings.askTimeout());
    this.usage = new UsageLedger(entities::usage, asks, Clock.systemUTC());
    this.sessions = new AccountAccess(entities, asks, clock);
    this.quotas =
        QuotaPolicy.of(
            config,
            entities::quota,
            entities::account,
            entities::watch,
            asks,
            usage::month,
            sessions::account,
            metrics.registry());
    this.runs =
        new OnDemandRuns(
            entities::watch, entities::account, entities::runAll, asks, quotas::checkBudgets);
    this.blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
    JournalReads journal = new JournalReads(system);
    this.runPages = new RunPages(entities::watch, asks, journal);
    this.accounts =
        new Accounts(entities::account, entities::email, asks, journal, tokens, blocking);
    KeyCipher cipher = keyring(config, settings, tokens);
    this.trusted = UpstreamClients.trusted();
    this.notifyMeters = new NotifyMeters(metrics.registry());
    this.modelMeters = new ModelMeters(metrics.registry());
    this.adminAlerts = AdminAlerts.create(config, trusted, blocking, notifyMeters);
    this.keyPools = new KeyPools(entities, asks, cipher, adminAlerts, Clock.systemUTC());
    KeyPoolMeters.register(metrics, keyPools);
    this.reencryption = new Reencryption(keyPools, cipher);
    this.sealedChannels = new SealedChannels(cipher);
    this.channelReencryption =
        new ChannelReencryption(sealedChannels, journal, entities::watch, asks);
    this.webhookSecrets =
        new WebhookSecretStore(entities, asks, cipher, journal, Clock.systemUTC());
    Settings.Push push = settings.push();
    this.vapid =
        new Vapid(
            push.keysConfigured()
                ? Optional.of(VapidKeys.parse(push.vapidPublicKey(), push.vapidPrivateKey()))
                : Optional.empty(),
            push.vapidSubject().isEmpty() ? Optional.empty() : Optional.of(push.vapidSubject()),
            entities,
            asks,
            cipher);
    this.erasure = new JournalErasure(system);
    // the first WEB_ORIGIN, else the client this service serves
    String webClient = settings.webOrigins().stream().findFirst().orElse(settings.publicUrl());
    EmailSender mailer = new EmailSender(SmtpSettings.from(config), blocking);
    MailBudget mailBudget =
        new MailBudget(entities, asks, MailBudget.Settings.from(config), adminAlerts, clock);
    AccountMails mails = new AccountMails(webClient);
    this.registration = Registration.from(settings.signUp().mode(), settings.signUp().domains());
    this.selfService =
        new SelfService(
            accounts,
            entities::account,
            entities::email,
            asks,
            mailer,
            mailBudget,
            mails,
            sessions,
            registration,
            blocking,
            clock);
    this.identityLinks =
        new IdentityLinks(
            accounts,
            entities::account,
            entities::email,
            entities::identityLink,
            asks,
            mailer,
            mailBudget,
            mails,
            sessions,
            registration,
            clock);
    this.channelPolicy =
        new ChannelPermissions(
            entities::account,
            entities::telegramChats,
            entities::channelAddresses,
            asks,
            config.getBoolean("periscope.telegram.chat-open"));
    this.channelAddresses =
        new ChannelAddresses(
            entities::email, entities::channelAddresses, asks, mailer, mailBudget, mails, clock);
    this.watches =
        new Watches(
            entities::account, entities::watch, channelPolicy, webhookSecrets, quotas, asks);
    this.transfers =
        new Transfers(
            entities::account,
            watches,
            entities::trustRules,
            channelAddresses,
            channelPolicy,
            sealedChannels,
            quotas,
            asks,
            settings.scheduleTimeZone(),
            Clock.systemUTC());
    this.accountAdmin =
        new AccountAdmin(
            accounts,
            entities::account,
            entities::watch,
            entities::trustRules,
            entities::auditLog,
            entities::adminTurns,
            entities::email,
            sessions,
            selfService,
            erasure,
            List.of(
                new DevicesEraser(entities::devices, asks),
                new ChannelsEraser(
                    entities::channelAddresses, webhookSecrets, asks, Clock.systemUTC()),
                new FeedbackEraser(erasure),
                new UsageEraser(erasure)::erase),
            asks,
            clock);
    this.firstRun = new FirstRun(accounts, accountAdmin);
    this.identitySignIn =
        new IdentitySignIn(
            IdentityProviderSettings.from(config),
            UpstreamClients.identity(trusted),
            identityLinks,
            tokens.secret(),
            settings.publicUrl(),
            clock);
    Settings.Providers p = settings.providers();
    OkHttpClient keyed = UpstreamClients.keyed(trusted);
    this.models =
        new ModelConfigs(
            entities,
            asks,
            ModelConfiguration.both(
                ModelChoice.withDefaults(p.modelProvider(), p.modelBaseUrl(), p.modelName())),
            keyed,
            Clock.systemUTC());
    this.search =
        p.searchProvider().equals("searxng") && p.searchBaseUrl().isBlank()
            ? Optional
                .empty() // SearXNG has no public default: without SEARCH_BASE_URL search is not
            // configured
            : Optional.of(SearchProviders.create(p.searchProvider(), p.searchBaseUrl(), keyed));
    RepeatedAlerts runAlerts =
        new RepeatedAlerts(adminAlerts, Clock.systemUTC(), RepeatedAlerts.REPEAT_EVERY);
    SafeHttp userUrls = new SafeHttp(settings.allowPrivateNetworks());
    Notifier notifier =
        Notifier.create(
            config,
            trusted,
            userUrls.guardedClient(),
            blocking,
            Optional.of(new WebPushSender(entities, asks, vapid, userUrls.guardedClient())),
            webhookSecrets,
            channelPolicy,
            adminAlerts,
            notifyMeters,
            sealedChannels::open);
    this.testSends = new TestSends(channelPolicy, notifier, sealedChannels, Clock.systemUTC());
    CollectionBudget collection = new CollectionBudget(CollectionLimits.from(config));
    this.feedFinder = new FeedFinder(userUrls, collection);
    this.pages =
        new PageCollector(
            userUrls,
            collection,
            BrowserRenderer.of(
                config.getString("periscope.fetch.browser-url"), settings.allowPrivateNetworks()));
    this.pipeline = pipeline(userUrls, collection, notifier, runAlerts);
    quotas.tellOwnersBy(
        new BudgetNotices(entities::account, entities::watch, asks, Clock.systemUTC()));
    this.feedbacks =
        new Feedbacks(entities::watch, entities::feedback, runPages, asks, Clock.systemUTC());
    this.backtester =
        new Backtester(
            system,
            runPages,
            feedbacks,
            new PooledModel(models.verdicts(), keyPools, modelMeters),
            quotas::useModelCall,
            usage);
    entities.start(
        new AccountGate(
            new RunSlots(
                pipeline,
                settings.runsPerNode(),
                settings.runDeadline(),
                system.executionContext()),
            sessions::enabled),
        new EntityRunAll(system, entities::watch, asks, settings.runAllConcurrency(), runAlerts),
        backtester::run,
        clock);
  }

  private static KeyCipher keyring(Config config, Settings settings, Tokens tokens) {
    try {
      return KeyCipher.keyring(config, tokens.secret(), settings.dataDir());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot keep the encryption key", e);
    }
  }

  private Pipeline pipeline(
      SafeHttp userUrls, CollectionBudget collection, Notifier notifier, RepeatedAlerts runAlerts) {
    return new Pipeline(
        new FeedCollector(userUrls, collection),
        pages,
        search,
        new ArticleExtractor(userUrls, collection),
        new PooledModel(models.verdicts(), keyPools, modelMeters),
        keyPools,
        notifier,
        adminAlerts,
        runAlerts,
        accountId ->
            asks.<TrustRulesEntity.Command, TrustRulesEntity.Rules>ask(
                    entities.trustRules(accountId), TrustRulesEntity.GetRules::new)
                .thenApply(r -> TrustRules.of(r.rules())),
        quotas::useModelCall,
        usage,
        Clock.systemUTC());
  }

  /** Makes schedules fire: on a serving node only (the command line runs watches by hand). */
  /** Starts the wake-up projection and poller; their readiness checks join the node's. */
  public void startSchedules(ActorSystem<?> system, Config config) throws Exception {
    WakeUpStartup.start(system, config, entities, clock, adminAlerts).forEach(serving::require);
    AlertBudget alertBudget = adminAlerts.throttle(AlertBudget.Settings.from(config));
    system.getWhenTerminated().thenRun(alertBudget::close);
    MailBudget.Settings.from(config)
        .unverifiedKept()
        .ifPresent(
            keptFor -> {
              UnverifiedAccounts purge =
                  new UnverifiedAccounts(accounts, accountAdmin, keptFor, clock);
              system
                  .scheduler()
                  .scheduleWithFixedDelay(
                      Duration.ofMinutes(1),
                      UnverifiedAccounts.EVERY,
                      purge::purge,
                      system.executionContext());
            });
  }

  /**
   * Adds the operator's MODEL_API_KEYS and SEARCH_API_KEYS to their pools (idempotent, on every
   * start).
   */
  public CompletionStage<Done> seedKeyPools() {
    Settings.Providers p = settings.providers();
    return keyPools
        .seed(KeyPoolEntity.MODEL, p.modelKeys())
        .thenCompose(done -> keyPools.seed(KeyPoolEntity.SEARCH, p.searchKeys()));
  }

  /**
   * Seals every stored key (the pools', the generated VAPID private key, the owners' webhook
   * secrets, the watches' channel credentials) under the newest key of ENCRYPTION_KEY.
   */
  public CompletionStage<Reencryption.Result> reencrypt() {
    return Reencryption.all(
        List.of(
            reencryption.pool(KeyPoolEntity.MODEL),
            reencryption.pool(KeyPoolEntity.SEARCH),
            vapid.reencrypt(),
            webhookSecrets.reencrypt(),
            channelReencryption.reencrypt()));
  }

  /** Writes what is counted in memory only (the key pools' uses), before this process ends. */
  public CompletionStage<Done> flush() {
    return keyPools.flush();
  }

  public Accounts accounts() {
    return accounts;
  }

  /** What administrators (and the command line, as the operator) do to accounts. */
  /** Whether a model key is usable now: verdicts and assistance need one. */
  public CompletionStage<Boolean> modelReady() {
    return keyPools.hasUsableKey(KeyPoolEntity.MODEL);
  }

  /** Whether search sources can run: a search provider, and a search key usable now. */
  public CompletionStage<Boolean> searchReady() {
    return search.isEmpty()
        ? CompletableFuture.completedFuture(false)
        : keyPools.hasUsableKey(KeyPoolEntity.SEARCH);
  }

  /** The first administrator's one-time setup link, while no account exists. */
  public FirstRun firstRun() {
    return firstRun;
  }

  public AccountAdmin accountAdmin() {
    return accountAdmin;
  }

  /** Export and import of accounts' watches, trust rules and channel addresses. */
  public Transfers transfers() {
    return transfers;
  }

  /** Starts an owner's run-all and answers its job at once (refused while one is in flight). */
  public CompletionStage<RunAllJob> startRunAll(String accountId) {
    return runs.startRunAll(accountId);
  }

  /** An owner's run-all job as it stands; refused for an unknown one. */
  public CompletionStage<RunAllJob> runAllJob(String accountId, String jobId) {
    return runs.runAllJob(accountId, jobId);
  }

  /** Runs one watch now, enabled or not; refused when the watch does not exist. */
  public CompletionStage<RunRecord> runNow(String accountId, String watchId) {
    return runs.runNow(accountId, watchId);
  }

  /** Where the operational alerts of this configuration go. */
  public AdminAlerts adminAlerts() {
    return adminAlerts;
  }

  public HttpApi httpApi(Clock clock) {
    Settings.RateLimits limits = settings.rateLimits();
    MeterRegistry meters = metrics.registry();
    FixedWindowRateLimiter authLimiter =
        new FixedWindowRateLimiter(limits.authPerIpPerMinute(), Duration.ofMinutes(1), clock)
            .counted(meters, "auth");
    FixedWindowRateLimiter aiLimiter =
        new FixedWindowRateLimiter(limits.aiPerOwnerPerMinute(), Duration.ofMinutes(1), clock)
            .counted(meters, "assistance");
    // one window for the reads of what runs judged and cost, beside the AI routes' for what calls
    FixedWindowRateLimiter readLimiter =
        new FixedWindowRateLimiter(limits.readsPerOwnerPerMinute(), Duration.ofMinutes(1), clock)
            .counted(meters, "reads");
    FixedWindowRateLimiter probeLimiter =
        new FixedWindowRateLimiter(limits.keyProbesPerMinute(), Duration.ofMinutes(1), clock)
            .counted(meters, "key-probes");
    Assistant assistant =
        new Assistant(
            new PooledModel(models.assistance(), keyPools, modelMeters),
            keyPools,
            search,
            new DomainLiveness(settings.allowPrivateNetworks()),
            settings.scheduleTimeZone());
    Map<String, KeyPoolAdmin.Probe> probes =
        new HashMap<>(Map.of(KeyPoolEntity.MODEL, models::probe));
    search.ifPresent(provider -> probes.put(KeyPoolEntity.SEARCH, provider::probe));
    WatchWarnings watchWarnings =
        new WatchWarnings(settings.integrations(), this::searchReady, channelPolicy);
    ClientAddresses clients =
        ClientAddresses.trusting(settings.trustedProxies(), settings.trustedProxyHeader());
    HeldSlots<String> eventStreams = new HeldSlots<>(settings.eventStreamsPerAccount());
    return new HttpApi(
        tokens,
        sessions,
        settings.webOrigins(),
        clients,
        metrics.registry(),
        new SystemRoutes(
            settings,
            identitySignIn.status(),
            this::modelReady,
            this::searchReady,
            settings.metricsOnApiPort() ? Optional.of(metrics) : Optional.empty(),
            serving::readiness,
            registration,
            firstRun::open),
        new AuthRoutes(
            accounts,
            selfService,
            identitySignIn,
            identityLinks,
            channelAddresses,
            settings.webOrigins().stream().findFirst(),
            settings.publicUrl(),
            authLimiter,
            clients,
            new SignInBackoff(clock),
            firstRun),
        new AssistRoutes(
            assistant,
            feedbacks,
            entities,
            asks,
            aiLimiter,
            quotas::useModelCall,
            usage,
            settings.maxBodyBytes(),
            watchWarnings),
        new WatchRoutes(
            watches,
            sealedChannels,
            runs,
            runPages,
            feedFinder,
            settings.maxBodyBytes(),
            settings.scheduleTimeZone(),
            eventStreams,
            readLimiter,
            watchWarnings),
        new VersionRoutes(watches, sealedChannels),
        new CollectionRoutes(entities, asks, clock),
        new AdminRoutes(
            accountAdmin,
            keyPools,
            new KeyPoolAdmin(keyPools, probes),
            models,
            probeLimiter,
            this::reencrypt),
        new AccountRoutes(
            new OwnAccount(accounts, entities::account, asks, sessions, tokens, blocking, clock),
            settings.maxBodyBytes()),
        new TrustRoutes(entities, asks, settings.maxBodyBytes()),
        new QuotaRoutes(quotas, accounts),
        new TransferRoutes(transfers, settings.maxBodyBytes()),
        new FeedbackRoutes(feedbacks, entities, asks, settings.maxBodyBytes(), readLimiter),
        new DeviceRoutes(entities, asks, vapid, Clock.systemUTC(), settings.maxBodyBytes()),
        new OpenApiRoutes(),
        new ChannelRoutes(
            channelAddresses,
            webhookSecrets,
            testSends,
            new FixedWindowRateLimiter(
                    limits.testSendsPerOwnerPerMinute(), Duration.ofMinutes(1), clock)
                .counted(meters, "test-sends"),
            entities,
            asks),
        new UsageRoutes(usage, accounts, entities, asks, readLimiter),
        new BacktestRoutes(
            backtester,
            new BacktestJobs(entities::backtests, asks),
            entities,
            asks,
            aiLimiter,
            settings.maxBodyBytes(),
            eventStreams,
            settings.scheduleTimeZone(),
            readLimiter),
        new DryRunRoutes(
            new DryRuns(
                pipeline::trial,
                entities::watch,
                asks,
                settings.scheduleTimeZone(),
                Clock.systemUTC()),
            channelPolicy,
            aiLimiter,
            settings.maxBodyBytes()),
        new SourceRoutes(
            feedFinder,
            pages,
            new FixedWindowRateLimiter(
                    limits.sourcesPerOwnerPerMinute(), Duration.ofMinutes(1), clock)
                .counted(meters, "sources"),
            watches,
            settings.maxBodyBytes()),
        new WebRoutes(WebAssets.load()));
  }
}
