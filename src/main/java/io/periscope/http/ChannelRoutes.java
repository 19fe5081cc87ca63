package io.periscope.http;

import static io.periscope.entity.Refusal.Kind.NOT_FOUND;
import static io.periscope.http.ApiDirectives.adminOnly;
import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.ApiDirectives.rateLimited;
import static io.periscope.http.Reply.json;
import static io.periscope.http.Reply.ok;
import static org.apache.pekko.http.javadsl.model.HttpMethods.DELETE;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;
import static org.apache.pekko.http.javadsl.model.HttpMethods.PUT;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.auth.Principal;
import io.periscope.channels.ChannelAddresses;
import io.periscope.channels.TelegramChatsEntity;
import io.periscope.channels.TestSends;
import io.periscope.channels.WebhookSecretStore;
import io.periscope.entity.Asks;
import io.periscope.entity.Refusal;
import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import io.periscope.notify.ChannelId;
import io.periscope.notify.ChannelMask;
import io.periscope.notify.Delivery;
import io.periscope.ratelimit.FixedWindowRateLimiter;
import io.periscope.runtime.Entities;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchValidator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.Done;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.Route;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What channels may reach (see {@code channels.ChannelPermissions}): the addresses the caller's
 * {@code email:} channels may mail, each confirmed by its mailbox (/channels/email-addresses), and
 * the Telegram chats administrators open to users (/admin/telegram-chats, administrators only); and
 * the secrets the caller's webhooks are signed with (/channels/webhook-secret: each endpoint's own,
 * with {@code ?url=}, and the account's, shown once when made).
 */
public final class ChannelRoutes implements Routes {
  private static final Logger log = LoggerFactory.getLogger(ChannelRoutes.class);
  private static final long MAX_BODY = 16 * 1024;
  static final int MAX_CHAT_OWNERS = 1000;

  private final ChannelAddresses addresses;
  private final WebhookSecretStore webhookSecrets;
  private final TestSends testSends;
  private final FixedWindowRateLimiter testLimiter;
  private final Entities entities;
  private final Asks asks;

  /**
   * @param testLimiter test sends an owner may ask in a window
   */
  public ChannelRoutes(
      ChannelAddresses addresses,
      WebhookSecretStore webhookSecrets,
      TestSends testSends,
      FixedWindowRateLimiter testLimiter,
      Entities entities,
      Asks asks) {
    this.addresses = addresses;
    this.webhookSecrets = webhookSecrets;
    this.testSends = testSends;
    this.testLimiter = testLimiter;
    this.entities = entities;
    this.asks = asks;
  }

  /** The body of GET /admin/telegram-chats. */
  public record ChatList(List<ChatView> chats) {}

  /** An allowed chat as the admin routes show it. */
  public record ChatView(
      String chat, boolean everyone, List<String> owners, Instant at, String by) {
    static ChatView of(TelegramChatsEntity.AllowedChat c) {
      return new ChatView(c.chat(), c.everyone(), c.owners(), c.at(), c.by());
    }
  }

  /** The answer of a test send: what happened on each channel (each device for push). */
  public record TestResults(List<Delivery> results) {}

  /** The answer of POST /channels/email-addresses. */
  public record Pending(String status, String message) {}

  @Override
  public Route around(Principal caller, Supplier<Route> endpoints) {
    return concat(pathPrefixTest("admin", () -> adminOnly(caller, endpoints)), endpoints.get());
  }

  @Override
  public List<Endpoint> endpoints() {
    Map<String, java.util.function.Predicate<String>> chats = Map.of("chat", ChannelRoutes::isChat);
    return List.of(
        new Endpoint(
            GET,
            "/channels/email-addresses",
            (caller, p) -> answer(addresses.list(caller.accountId()).thenApply(Reply::ok))),
        new Endpoint(
            POST,
            "/channels/email-addresses",
            (caller, p) -> jsonBody(MAX_BODY, body -> answer(request(caller, body)))),
        new Endpoint(
            DELETE,
            "/channels/email-addresses/{address}",
            (caller, p) ->
                answer(deleted(addresses.remove(caller.accountId(), p.get("address")), "address"))),
        new Endpoint(
            POST,
            "/channels/test",
            (caller, p) ->
                rateLimited(
                    testLimiter,
                    caller.accountId(),
                    () -> jsonBody(MAX_BODY, body -> answer(test(caller, body))))),
        new Endpoint(
            POST,
            "/watches/{id}/channels/test",
            WatchRoutes.watch(
                (accountId, id, p) ->
                    rateLimited(testLimiter, accountId, () -> answer(testWatch(accountId, id))))),
        new Endpoint(
            GET,
            "/channels/webhook-secret",
            (caller, p) -> webhookUrl(url -> answer(webhookSecret(caller.accountId(), url)))),
        new Endpoint(
            POST,
            "/channels/webhook-secret",
            (caller, p) -> webhookUrl(url -> answer(newWebhookSecret(caller.accountId(), url)))),
        new Endpoint(
            DELETE,
            "/channels/webhook-secret",
            (caller, p) ->
                webhookUrl(
                    url ->
                        url.isPresent()
                            ? answer(
                                CompletableFuture.completedFuture(
                                    Reply.invalid(
                                        List.of(
                                            Issue.at(
                                                "an endpoint's secret is rotated (POST), not"
                                                    + " removed: every webhook is signed",
                                                "query",
                                                "url")))))
                            : answer(
                                deleted(
                                    webhookSecrets.remove(caller.accountId()), "webhook secret")))),
        new Endpoint(
            GET,
            "/admin/telegram-chats",
            (caller, p) ->
                answer(
                    asks.<TelegramChatsEntity.Command, TelegramChatsEntity.Chats>ask(
                            entities.telegramChats(), TelegramChatsEntity.Get::new)
                        .thenApply(
                            c -> ok(new ChatList(c.chats().stream().map(ChatView::of).toList()))))),
        new Endpoint(
            PUT,
            "/admin/telegram-chats/{chat}",
            chats,
            (caller, p) -> jsonBody(MAX_BODY, body -> answer(allow(caller, p.get("chat"), body)))),
        new Endpoint(
            DELETE,
            "/admin/telegram-chats/{chat}",
            chats,
            (caller, p) ->
                answer(
                    deleted(
                        asks.<TelegramChatsEntity.Command, Done>ask(
                                entities.telegramChats(),
                                r ->
                                    new TelegramChatsEntity.Disallow(
                                        p.get("chat"), caller.accountId(), r))
                            .thenApply(
                                done -> {
                                  log.info(
                                      "event=telegram-chat-closed chat={} by={}",
                                      p.get("chat"),
                                      caller.accountId());
                                  return done;
                                }),
                        "chat"))));
  }

  /** The endpoint's own secret; without {@code url}, which secrets there are. */
  private CompletionStage<Reply> webhookSecret(String accountId, Optional<String> url) {
    if (url.isEmpty()) return webhookSecrets.status(accountId).thenApply(Reply::ok);
    return webhookSecrets
        .endpoint(accountId, url.get())
        .thenApply(
            secret ->
                secret
                    .map(Reply::ok)
                    .orElseThrow(
                        () ->
                            new Refusal(
                                NOT_FOUND,
                                "this webhook has no secret of its own yet: one is made when a"
                                    + " watch naming it is saved or it is first sent to, unless"
                                    + " the account's secret signs it")));
  }

  /** The endpoint's secret rotated; without {@code url}, the account's made anew. */
  private CompletionStage<Reply> newWebhookSecret(String accountId, Optional<String> url) {
    CompletionStage<?> made =
        url.isEmpty()
            ? webhookSecrets.create(accountId)
            : webhookSecrets.rotate(accountId, url.get());
    return made.thenApply(
        created -> {
          log.info("event=webhook-secret-created owner={} endpoint={}", accountId, url.isPresent());
          return json(StatusCodes.CREATED, created);
        });
  }

  /**
   * The {@code url} query parameter naming a webhook endpoint (its URL as its channel names it,
   * after {@code webhook:}), empty without one; 400 when it is no http(s) URL.
   */
  private static Route webhookUrl(java.util.function.Function<Optional<String>, Route> inner) {
    return parameterOptional(
        "url",
        url ->
            url.isEmpty() || ChannelId.parse("webhook:" + url.get()).isPresent()
                ? inner.apply(url)
                : answer(
                    CompletableFuture.completedFuture(
                        Reply.invalid(
                            List.of(
                                Issue.at("must be the webhook's http(s) URL", "query", "url"))))));
  }

  /** {@code default} (the bare {@code telegram} channel's chat) or a chat id. */
  static boolean isChat(String chat) {
    return chat.equals(TelegramChatsEntity.DEFAULT_CHAT)
        || ChannelId.parse("telegram:" + chat).isPresent();
  }

  private CompletionStage<Reply> test(Principal caller, JsonNode body) {
    if (!body.isObject()) throw new ValidationException(List.of(Issue.at("must be an object")));
    List<Issue> issues = new ArrayList<>();
    List<String> channels = WatchValidator.channels(body.get("channels"), issues);
    if (issues.isEmpty() && channels.isEmpty())
      issues.add(Issue.at("name at least one channel", "channels"));
    // a masked channel has no credential to send with: the watch's own test sends its stored one
    for (int i = 0; i < channels.size(); i++)
      if (ChannelMask.masked(channels.get(i)) || ChannelMask.sealed(channels.get(i)))
        issues.add(
            Issue.at(
                "hides its credential: write it in full, or test the watch's own channels",
                "channels",
                i));
    if (!issues.isEmpty()) throw new ValidationException(issues);
    return tested(testSends.send(caller.accountId(), null, null, channels));
  }

  private CompletionStage<Reply> testWatch(String accountId, String id) {
    return asks.<WatchEntity.Command, Watch>ask(entities.watch(accountId, id), WatchEntity.Get::new)
        .exceptionally(Refusal.as(NOT_FOUND, WatchEntity.WATCH_NOT_FOUND))
        .thenCompose(
            watch -> {
              if (watch.channels().isEmpty()) {
                throw new ValidationException(
                    List.of(Issue.at("the watch names no channels", "channels")));
              }
              return tested(testSends.send(accountId, id, watch.name(), watch.channels()));
            });
  }

  private static CompletionStage<Reply> tested(CompletionStage<List<Delivery>> sent) {
    return sent.thenApply(results -> ok(new TestResults(results)));
  }

  private CompletionStage<Reply> request(Principal caller, JsonNode body) {
    JsonNode address = body.path("address");
    if (!body.isObject() || !address.isTextual()) {
      throw new ValidationException(List.of(Issue.at("must be an e-mail address", "address")));
    }
    return addresses
        .request(caller.accountId(), address.asText())
        .thenApply(
            done ->
                json(
                    StatusCodes.ACCEPTED,
                    new Pending(
                        "pending",
                        "unless it is confirmed already, the address was mailed a link to"
                            + " confirm it")));
  }

  private CompletionStage<Reply> allow(Principal caller, String chat, JsonNode body) {
    List<Issue> issues = new ArrayList<>();
    if (!body.isObject()) throw new ValidationException(List.of(Issue.at("must be an object")));
    JsonNode everyone = body.path("everyone");
    if (!everyone.isMissingNode() && !everyone.isBoolean())
      issues.add(Issue.at("must be a boolean", "everyone"));
    JsonNode owners = body.path("owners");
    List<String> ids = new ArrayList<>();
    if (!owners.isMissingNode() && (!owners.isArray() || owners.size() > MAX_CHAT_OWNERS)) {
      issues.add(
          Issue.at("must be an array of at most " + MAX_CHAT_OWNERS + " account ids", "owners"));
    } else {
      for (int i = 0; i < owners.size(); i++) {
        JsonNode id = owners.get(i);
        if (id.isTextual() && WatchValidator.ID.matcher(id.asText()).matches())
          ids.add(id.asText());
        else issues.add(Issue.at("must be an account id", "owners", i));
      }
    }
    boolean all = everyone.asBoolean(false);
    if (issues.isEmpty() && !all && ids.isEmpty())
      issues.add(Issue.at("allow everyone, or name at least one account", "owners"));
    if (!issues.isEmpty()) throw new ValidationException(issues);
    TelegramChatsEntity.AllowedChat allowed =
        new TelegramChatsEntity.AllowedChat(chat, all, ids, Instant.now(), caller.accountId());
    return asks.<TelegramChatsEntity.Command, TelegramChatsEntity.AllowedChat>ask(
            entities.telegramChats(), r -> new TelegramChatsEntity.Allow(allowed, r))
        .thenApply(
            c -> {
              log.info(
                  "event=telegram-chat-opened chat={} everyone={} owners={} by={}",
                  chat,
                  c.everyone(),
                  c.owners().size(),
                  caller.accountId());
              return ok(ChatView.of(c));
            });
  }

  /** 204, or 404 ({@code <what> not found}) when there was nothing to delete. */
  private static CompletionStage<Reply> deleted(CompletionStage<Done> removal, String what) {
    return removal
        .thenApply(done -> Reply.noContent())
        .exceptionally(Refusal.as(NOT_FOUND, what + " not found"));
  }
}
