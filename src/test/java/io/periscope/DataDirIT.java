package io.periscope;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.ServiceProcess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * What the service leaves in its data directory is its user's alone: the folder 0700, every file
 * 0600, and the embedded database's server (AUTO_SERVER, for the command line) on loopback only.
 */
public class DataDirIT {
  @Test
  public void theDataDirectoryIsPrivateAndTheEmbeddedServerListensOnLoopbackOnly()
      throws Exception {
    Path dataDir = Files.createTempDirectory("periscope-data-dir-it").resolve("data");
    try (ServiceProcess service =
        new ServiceProcess(
                Map.of("DATA_DIR", dataDir.toString()), ServiceProcess.logFile("data-dir"))
            .start()) {
      assertEquals(
          "rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir)));
      List<Path> files;
      try (Stream<Path> listed = Files.list(dataDir)) {
        files = listed.toList();
      }
      assertTrue(
          "the journal is there: " + files, files.contains(dataDir.resolve("journal.mv.db")));
      for (Path file : files) {
        assertEquals(
            file.toString(),
            "rw-------",
            PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      }

      Properties lock = new Properties();
      try (var in = Files.newInputStream(dataDir.resolve("journal.lock.db"))) {
        lock.load(in);
      }
      String server = lock.getProperty("server");
      int port = Integer.parseInt(server.substring(server.lastIndexOf(':') + 1));
      try (Socket loopback = new Socket()) {
        loopback.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
      }
      List<InetAddress> outside = nonLoopbackAddresses();
      assertFalse("this machine has a non-loopback address to try from", outside.isEmpty());
      for (InetAddress address : outside) {
        assertFalse("the embedded server answers on " + address, answers(address, port));
      }
    }
  }

  private static boolean answers(InetAddress address, int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(address, port), 2000);
      return true;
    } catch (IOException refused) {
      return false;
    }
  }

  private static List<InetAddress> nonLoopbackAddresses() throws IOException {
    List<InetAddress> found = new ArrayList<>();
    for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      if (!nic.isUp() || nic.isLoopback()) continue;
      for (InetAddress a : Collections.list(nic.getInetAddresses())) {
        if (!a.isLoopbackAddress() && !a.isLinkLocalAddress()) found.add(a);
      }
    }
    return found;
  }
}
