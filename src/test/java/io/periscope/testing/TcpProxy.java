package io.periscope.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder on a fixed loopback port, to take a server away from a process under test and
 * give it back: {@link #cut()} closes the port and every connection through it (the process sees
 * its database vanish), {@link #restore()} listens on the same port again.
 */
public final class TcpProxy implements AutoCloseable {
  private final int port;
  private final String targetHost;
  private final int targetPort;
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private volatile ServerSocket server;

  public TcpProxy(String targetHost, int targetPort) throws IOException {
    this.port = ServiceProcess.freePort();
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    restore();
  }

  public int port() {
    return port;
  }

  public synchronized void restore() throws IOException {
    ServerSocket listening = new ServerSocket();
    listening.setReuseAddress(true);
    listening.bind(new InetSocketAddress("127.0.0.1", port));
    server = listening;
    Thread accepting = new Thread(() -> accept(listening), "tcp-proxy-" + port);
    accepting.setDaemon(true);
    accepting.start();
  }

  public synchronized void cut() throws IOException {
    server.close();
    for (Socket s : open) s.close();
    open.clear();
  }

  private void accept(ServerSocket listening) {
    while (!listening.isClosed()) {
      try {
        Socket client = listening.accept();
        Socket upstream = new Socket(targetHost, targetPort);
        open.add(client);
        open.add(upstream);
        pump(client, upstream);
        pump(upstream, client);
      } catch (IOException closed) {
        return;
      }
    }
  }

  private static void pump(Socket from, Socket to) {
    Thread t =
        new Thread(
            () -> {
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
              } catch (IOException ended) {
                // one side closed: close the other too
              } finally {
                try {
                  from.close();
                  to.close();
                } catch (IOException ignored) {
                  // already closed
                }
              }
            });
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    cut();
  }
}
