package io.periscope.net;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.Optional;
import java.util.function.Predicate;
import javax.net.SocketFactory;

/**
 * Sockets that refuse, before a single packet leaves, to connect to an address {@link AddressGuard}
 * refuses. Every connection of the clients for user-supplied URLs is made here, whatever resolved
 * the address (DNS, an IP literal OkHttp never resolves, a redirect, a route retried after a
 * failure), so no path reaches an internal host and nothing tells an open port from a closed or
 * filtered one: each is the same failure to connect. TLS is layered over these sockets, so HTTPS is
 * covered too.
 */
final class GuardedSocketFactory extends SocketFactory {
  /** A connection the guard refused; a {@link ConnectException}, so it fails like any other. */
  static final class RefusedConnection extends ConnectException {
    RefusedConnection(String message) {
      super(message);
    }
  }

  private final Predicate<InetAddress> exempt;

  /**
   * @param exempt addresses the guard lets through (all of them when private networks are allowed)
   */
  GuardedSocketFactory(Predicate<InetAddress> exempt) {
    this.exempt = exempt;
  }

  @Override
  public Socket createSocket() {
    return new GuardedSocket();
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return connected(new InetSocketAddress(host, port));
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
      throws IOException {
    return connected(new InetSocketAddress(host, port));
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return connected(new InetSocketAddress(host, port));
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    return connected(new InetSocketAddress(address, port));
  }

  private Socket connected(InetSocketAddress target) throws IOException {
    Socket socket = new GuardedSocket();
    socket.connect(target);
    return socket;
  }

  private final class GuardedSocket extends Socket {
    @Override
    public void connect(SocketAddress endpoint, int timeout) throws IOException {
      if (endpoint instanceof InetSocketAddress target) {
        InetAddress address = target.getAddress();
        if (address == null) throw new RefusedConnection("an unresolved address is never reached");
        Optional<String> refusal =
            exempt.test(address) ? Optional.empty() : AddressGuard.refusal(address);
        if (refusal.isPresent()) {
          close();
          // The address stays out of the message: the URL's owner need not learn the network.
          throw new RefusedConnection("a " + refusal.get() + " address is never reached");
        }
      }
      super.connect(endpoint, timeout);
    }
  }
}
