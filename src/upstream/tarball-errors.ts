import { RemoteError } from './errors.js';
import { redactUrls } from './redact.js';

/** A tarball upstream's index that cannot be read or parsed: one line naming the URL, what it answered and the fix. */
export class TarballIndexError extends RemoteError {
  constructor(
    url: string,
    readonly reason: string,
  ) {
    super(url, `tarball index ${url}: ${reason}`);
  }
}

/**
 * A download that did not bring the whole file: refused, cut off, too slow, too big, or an HTTP error. Not the
 * release's fault: the daemon tries it again after the backoff. Nothing was unpacked.
 */
export class TarballDownloadError extends Error {
  constructor(
    url: string,
    readonly reason: string,
  ) {
    super(redactUrls(`download of ${url} failed: ${reason}; nothing was unpacked, it is tried again`));
    this.name = new.target.name;
    this.url = redactUrls(url);
  }

  readonly url: string;
}

/** The file's sha256 is not the index's: a corrupted download or a wrong checksum file. It is never unpacked. */
export class TarballChecksumError extends Error {
  constructor(
    url: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      redactUrls(
        `tarball ${url} has sha256 ${actual}, the index says ${expected}: the file was removed and never unpacked ` +
          ('(a corrupted download is fetched again after the backoff; if it ' +
            "repeats, the vendor's checksum or file is wrong)"),
      ),
    );
    this.name = new.target.name;
    this.url = redactUrls(url);
  }

  readonly url: string;
}

/** A release the index listed at discovery that it no longer lists, or lists without a checksum. */
export class TarballNotListedError extends Error {
  constructor(
    index: string,
    readonly tag: string,
    readonly reason: string,
  ) {
    super(redactUrls(`tarball index ${index}: release ${JSON.stringify(tag)} ${reason}`));
    this.name = new.target.name;
  }
}

/**
 * A source upstream's index now gives a release another sha256 than when it was discovered: its builds are keyed by
 * the first, so the new file is not built under that key. Published sources do not change; a person looks first.
 */
export class TarballChangedError extends Error {
  constructor(
    readonly tag: string,
    url: string,
    readonly sha256: string,
    readonly discovered: string,
  ) {
    super(
      redactUrls(
        `release ${JSON.stringify(tag)}: the index now gives ${url} the sha256 ${sha256}, not the one discovery saw ` +
          `(${discovered}...): a published source changed, so it is not built under the release's key; ask the ` +
          'vendor which file is right (it is tried again after the backoff, and built once the index gives the ' +
          'first sha256 again)',
      ),
    );
    this.name = new.target.name;
  }
}
