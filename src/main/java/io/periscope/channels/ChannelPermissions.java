package io.periscope.channels;

import io.periscope.account.Account;
import io.periscope.account.AccountEntity;
import io.periscope.auth.EmailEntity;
import io.periscope.auth.Role;
import io.periscope.entity.Asks;
import io.periscope.entity.Failures;
import io.periscope.notify.ChannelId;
import io.periscope.notify.ChannelPolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * The channels an owner may use: the operator's Telegram chats ({@code telegram:<chat id>}, and the
 * bare {@code telegram} when {@code TELEGRAM_CHAT_OPEN=false}) only as an administrator or where an
 * administrator allowed them ({@link TelegramChatsEntity}), and {@code email:} only to the
 * account's own verified address or to an address whose mailbox confirmed it ({@link
 * ChannelAddressesEntity}). The other channels reach URLs the owner gave (behind the network guard)
 * or the owner's own devices.
 */
public final class ChannelPermissions implements ChannelPolicy {
  private final AccountEntity.Refs accountRefs;
  private final TelegramChatsEntity.Refs telegramChats;
  private final ChannelAddressesEntity.Refs channelAddresses;
  private final Asks asks;
  private final boolean defaultChatOpen;

  /**
   * @param defaultChatOpen the bare {@code telegram} channel is open to every account: the spec
   *     makes it every watch's default destination, and it reaches only the chat the operator chose
   */
  public ChannelPermissions(
      AccountEntity.Refs accountRefs,
      TelegramChatsEntity.Refs telegramChats,
      ChannelAddressesEntity.Refs channelAddresses,
      Asks asks,
      boolean defaultChatOpen) {
    this.accountRefs = accountRefs;
    this.telegramChats = telegramChats;
    this.channelAddresses = channelAddresses;
    this.asks = asks;
    this.defaultChatOpen = defaultChatOpen;
  }

  @Override
  public CompletionStage<Map<String, String>> refusals(String accountId, List<String> channels) {
    List<ChannelId> judged =
        channels.stream()
            .map(ChannelId::parse)
            .flatMap(Optional::stream)
            .filter(c -> c.kind() == ChannelId.Kind.TELEGRAM || c.kind() == ChannelId.Kind.EMAIL)
            .filter(
                c ->
                    !(defaultChatOpen && c.kind() == ChannelId.Kind.TELEGRAM && c.target() == null))
            .toList();
    if (judged.isEmpty()) return CompletableFuture.completedFuture(Map.of());
    boolean telegram = judged.stream().anyMatch(c -> c.kind() == ChannelId.Kind.TELEGRAM);
    boolean email = judged.stream().anyMatch(c -> c.kind() == ChannelId.Kind.EMAIL);
    CompletableFuture<Optional<Account>> account = account(accountId).toCompletableFuture();
    CompletableFuture<TelegramChatsEntity.Chats> chats =
        telegram
            ? asks.<TelegramChatsEntity.Command, TelegramChatsEntity.Chats>ask(
                    telegramChats.telegramChats(), TelegramChatsEntity.Get::new)
                .toCompletableFuture()
            : CompletableFuture.completedFuture(new TelegramChatsEntity.Chats(List.of()));
    CompletableFuture<List<String>> confirmed =
        email
            ? confirmedAddresses(accountId).toCompletableFuture()
            : CompletableFuture.completedFuture(List.of());
    return CompletableFuture.allOf(account, chats, confirmed)
        .thenApply(
            all -> {
              boolean admin = account.join().map(a -> a.role() == Role.ADMIN).orElse(false);
              Map<String, String> refused = new LinkedHashMap<>();
              for (ChannelId c : judged) {
                refusal(c, accountId, admin, account.join(), chats.join(), confirmed.join())
                    .ifPresent(why -> refused.put(c.id(), why));
              }
              return refused;
            });
  }

  private static Optional<String> refusal(
      ChannelId channel,
      String accountId,
      boolean admin,
      Optional<Account> account,
      TelegramChatsEntity.Chats chats,
      List<String> confirmed) {
    if (admin) return Optional.empty();
    if (channel.kind() == ChannelId.Kind.TELEGRAM) {
      String chat = channel.target() == null ? TelegramChatsEntity.DEFAULT_CHAT : channel.target();
      boolean allowed =
          chats.chats().stream().anyMatch(c -> c.chat().equals(chat) && c.allows(accountId));
      return allowed
          ? Optional.empty()
          : Optional.of(
              "this Telegram chat is the operator's: an administrator can open it to you (PUT"
                  + " /admin/telegram-chats/"
                  + chat
                  + ")");
    }
    String address = EmailEntity.normalize(channel.target());
    boolean own = account.map(a -> a.emailVerified() && a.email().equals(address)).orElse(false);
    return own || confirmed.contains(address)
        ? Optional.empty()
        : Optional.of(
            "the address is neither your verified one nor confirmed by its mailbox (POST"
                + " /channels/email-addresses)");
  }

  private CompletionStage<Optional<Account>> account(String accountId) {
    return asks.<AccountEntity.Command, Account>ask(
            accountRefs.account(accountId), AccountEntity.GetAccount::new)
        .handle(
            (account, none) -> {
              if (none != null && !Failures.isRefusal(none))
                throw new CompletionException(Failures.unwrap(none));
              return Optional.ofNullable(account);
            });
  }

  private CompletionStage<List<String>> confirmedAddresses(String accountId) {
    return asks.<ChannelAddressesEntity.Command, ChannelAddressesEntity.Addresses>ask(
            channelAddresses.channelAddresses(accountId), ChannelAddressesEntity.Get::new)
        .thenApply(
            a ->
                a.addresses().stream()
                    .filter(ChannelAddressesEntity.Address::confirmed)
                    .map(ChannelAddressesEntity.Address::address)
                    .toList());
  }
}
