package io.periscope.notify;

import static io.periscope.testing.Waits.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import io.periscope.net.SafeHttp;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import org.junit.Test;

/**
 * A user's channel URL that names an internal address by IP literal is refused before any
 * connection is opened, so a listener there never sees one, and the delivery's reason reads the
 * same whether a port is open or closed: nothing to probe an internal network with.
 */
public class InternalTargetsTest {
  private final OkHttpClient guarded = new SafeHttp(false).guardedClient();

  @Test
  public void aWebhookToALoopbackLiteralNeverConnectsAndReadsLikeAClosedPort() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      AtomicInteger connections = new AtomicInteger();
      Thread accepting =
          new Thread(
              () -> {
                try {
                  listener.setSoTimeout(200);
                  while (!listener.isClosed()) {
                    try {
                      listener.accept().close();
                      connections.incrementAndGet();
                    } catch (SocketTimeoutException idle) {
                      // keep listening until the test closes the socket
                    }
                  }
                } catch (java.io.IOException closed) {
                  // the test is over
                }
              });
      accepting.start();
      int open = listener.getLocalPort();
      int closed;
      try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        closed = gone.getLocalPort();
      }

      List<String> reasons = new ArrayList<>();
      for (String channel :
          List.of(
              "webhook:http://127.0.0.1:" + open + "/hook",
              "ntfy:https://127.0.0.1:" + open + "/topic",
              "slack:http://[::ffff:127.0.0.1]:" + open + "/services/x",
              "discord:http://127.0.0.1:" + closed + "/api/webhooks/x",
              "gotify:http://token@127.0.0.1:" + open,
              "matrix:http://token@127.0.0.1:" + closed + "/!room:example.org",
              "apprise:http://127.0.0.1:" + open + "/notify/key")) {
        ChannelId id = ChannelId.parse(channel).orElseThrow();
        Delivery delivery =
            await(
                switch (id.kind()) {
                  case WEBHOOK ->
                      new WebhookSender(guarded, WebhookSecrets.NONE, java.time.Clock.systemUTC())
                          .send(id, Alerts.confirmed());
                  case NTFY -> new NtfySender(guarded).send(id, Alerts.confirmed());
                  case SLACK -> new SlackSender(guarded).send(id, Alerts.confirmed());
                  case GOTIFY -> new GotifySender(guarded).send(id, Alerts.confirmed());
                  case MATRIX -> new MatrixSender(guarded).send(id, Alerts.confirmed());
                  case APPRISE -> new AppriseSender(guarded).send(id, Alerts.confirmed());
                  default -> new DiscordSender(guarded).send(id, Alerts.confirmed());
                });
        assertFalse(channel, delivery.ok());
        assertFalse(channel + ": a refused address stays refused", delivery.retryable());
        reasons.add(delivery.error());
      }
      Thread.sleep(500); // a connection accepted late would still be counted
      listener.close();
      accepting.join(5000);
      assertEquals("connections the listener saw", 0, connections.get());
      assertEquals(
          "open and closed ports fail alike",
          List.of("could not connect"),
          reasons.stream().distinct().toList());
    }
  }
}
