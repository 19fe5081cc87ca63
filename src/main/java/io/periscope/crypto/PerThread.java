package io.periscope.crypto;

import java.security.GeneralSecurityException;

/**
 * A JCA object (a digest, a Mac, a Cipher) a thread: {@code getInstance} searches the security
 * providers at every call, and none of these objects is safe to share between threads. Each use
 * starts it afresh ({@code reset}, {@code init}), whatever the thread's last use left.
 */
public final class PerThread {
  /** A JCA factory method, such as {@code Mac::getInstance}. */
  @FunctionalInterface
  public interface Factory<T> {
    T getInstance(String algorithm) throws GeneralSecurityException;
  }

  private PerThread() {}

  /**
   * One {@code algorithm} object a thread, made on the thread's first use.
   *
   * @param algorithm one every Java platform has: its absence is a broken platform, not an input
   */
  public static <T> ThreadLocal<T> of(Factory<T> factory, String algorithm) {
    return ThreadLocal.withInitial(
        () -> {
          try {
            return factory.getInstance(algorithm);
          } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java platform has " + algorithm, e);
          }
        });
  }
}
