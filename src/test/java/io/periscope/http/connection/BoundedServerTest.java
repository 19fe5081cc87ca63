package io.periscope.http.connection;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The whole service on loopback, its connections under attack. */
public class BoundedServerTest {
  // more than pekko.http.server.max-connections (1024): without the per-client cap none would be
  // left
  private static final int HALF_SENT = 1_100;

  @Test
  public void elevenHundredHalfSentRequestsLeaveHealthAnsweringAndAreClosed() throws Exception {
    try (InProcessService service =
        new InProcessService(
            TestJournals.h2(
                Map.of(
                    "periscope.http.connections.header-read-timeout", "2s",
                    "periscope.http.connections.per-client", "64")))) {
      URI base = service.uri("/");
      InetAddress attacker = InetAddress.getByName("127.0.0.2");
      List<Socket> held = new ArrayList<>();
      try {
        for (int i = 0; i < HALF_SENT; i++) {
          Socket s = new Socket();
          s.bind(new InetSocketAddress(attacker, 0));
          s.connect(new InetSocketAddress("127.0.0.1", base.getPort()), 5_000);
          OutputStream out = s.getOutputStream();
          out.write(
              "GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
          out.flush();
          held.add(s);
        }

        long started = System.nanoTime();
        HttpResponse<String> health = service.call("GET", "/health", null, null);
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertEquals(200, health.statusCode());
        assertTrue("/health answered in " + millis + " ms", millis < 2_000);

        assertTrue(
            "past the per-client cap the connections are closed at once",
            eventually(() -> stillOpen(held) <= 64, 5_000));
        assertTrue(
            "the rest are closed when their headers do not arrive in time",
            eventually(() -> stillOpen(held) == 0, 10_000));
      } finally {
        for (Socket s : held) s.close();
      }
    }
  }

  @Test
  public void aBodyThatStallsIsAnsweredWith408AndHealthAnswersMeanwhile() throws Exception {
    try (InProcessService service =
        new InProcessService(
            TestJournals.h2(Map.of("periscope.http.connections.body-read-timeout", "2s")))) {
      try (Socket s = new Socket("127.0.0.1", service.uri("/").getPort())) {
        s.getOutputStream()
            .write(
                ("POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 100\r\n\r\n{\"email\":")
                    .getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        assertEquals(200, service.call("GET", "/health", null, null).statusCode());
        s.setSoTimeout(10_000);
        String answer = new String(s.getInputStream().readNBytes(200), StandardCharsets.US_ASCII);
        assertTrue(answer, answer.startsWith("HTTP/1.1 408"));
      }
    }
  }

  @Test
  public void aClosedConnectionStartsNoThread() throws Exception {
    try (InProcessService service = new InProcessService(TestJournals.h2(Map.of()))) {
      int port = service.uri("/").getPort();
      for (int i = 0; i < 20; i++) healthOnItsOwnConnection(port); // the pools filled
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long before = threads.getTotalStartedThreadCount();
      for (int i = 0; i < 30; i++) healthOnItsOwnConnection(port);
      Thread.sleep(500); // the last closes seen
      long started = threads.getTotalStartedThreadCount() - before;
      assertTrue(started + " threads started for 30 connections", started < 10);
    }
  }

  private static void healthOnItsOwnConnection(int port) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.getOutputStream()
          .write(
              "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      s.setSoTimeout(10_000);
      assertTrue(
          new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)
              .startsWith("HTTP/1.1 200"));
    }
  }

  private interface Check {
    boolean holds() throws IOException;
  }

  private static boolean eventually(Check check, long withinMillis) throws Exception {
    long deadline = System.currentTimeMillis() + withinMillis;
    while (System.currentTimeMillis() < deadline) {
      if (check.holds()) return true;
      Thread.sleep(100);
    }
    return check.holds();
  }

  /** The sockets the server has not closed: a read that waits instead of ending. */
  private static int stillOpen(List<Socket> sockets) throws IOException {
    int open = 0;
    for (Socket s : sockets) {
      if (s.isClosed()) continue;
      s.setSoTimeout(1);
      InputStream in = s.getInputStream();
      try {
        if (in.read() < 0) s.close();
        else open++; // an answer is being sent: not closed yet
      } catch (SocketTimeoutException waiting) {
        open++;
      } catch (IOException reset) {
        s.close();
      }
    }
    return open;
  }
}
