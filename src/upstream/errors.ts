import { InputError } from '../errors.js';
import { redactUrl, splitUrl } from '../log/index.js';
import { redactRemoteIn, redactUrls } from './redact.js';

/**
 * A remote that cannot be used. Each subclass says why; the message is one line naming the remote and the fix,
 * so the CLI can print it alone.
 */
export class RemoteError extends InputError {
  constructor(remote: string, message: string) {
    super(redactRemoteIn(message, remote));
    this.name = new.target.name;
    this.remote = redactRemoteIn(remote, remote);
  }

  /** The remote as given, with any user part of an http(s) URL hidden. */
  readonly remote: string;
}

/** Text that is not a URL git accepts from qpswatch, nor an absolute path. */
export class InvalidRemoteError extends RemoteError {
  constructor(remote: string) {
    super(
      remote,
      `remote ${JSON.stringify(redactUrl(remote))} is not usable: write an ` +
        `https://, http://, git://, ssh:// or file:// URL, ` +
        `user@host:path, or an absolute path`,
    );
  }
}

/** A network remote git could not reach (refused, no route, DNS, TLS, timeout). `reason` is git's own line. */
export class RemoteUnreachableError extends RemoteError {
  constructor(
    remote: string,
    readonly reason: string,
  ) {
    super(remote, `remote ${remote} is unreachable (${reason}): check the URL, the network and any proxy`);
  }
}

/** The remote answered by asking for a user name or password: a typo in the URL or a private repository. */
export class RemoteCredentialsError extends RemoteError {
  constructor(
    remote: string,
    readonly reason: string,
  ) {
    super(
      remote,
      splitUrl(remote)?.userinfo
        ? `remote ${remote} refused the credentials in its URL (${reason}): check ` +
            `the token, its expiry and its access to the repository`
        : `remote ${remote} asks for credentials (${reason}): check the URL (a missing repository looks private), ` +
            `or put a token in the remote's URL (docs/operating.md, "A token in a git remote")`,
    );
  }
}

/** A local-path remote that does not exist. */
export class RemotePathMissingError extends RemoteError {
  constructor(remote: string) {
    super(remote, `remote ${remote} does not exist: fix the path, or clone the repository there first`);
  }
}

/** A local-path remote that exists but is not a git repository. */
export class NotAGitRepositoryError extends RemoteError {
  constructor(remote: string) {
    super(
      remote,
      `remote ${remote} is not a git repository: point the upstream's remote ` +
        `at a clone (a folder holding .git, or a bare repository)`,
    );
  }
}

/** No git on PATH (or at the path given). */
export class GitNotFoundError extends InputError {
  constructor(readonly git: string) {
    super(`git not found (program "${git}"): install git (e.g. apt-get install git) or put it on PATH`);
    this.name = new.target.name;
  }
}

/** A commit that is not a full 40-hex SHA-1. Tags are never checked out by name, so anything else is refused. */
export class InvalidCommitError extends InputError {
  constructor(readonly commit: string) {
    super(
      `commit ${JSON.stringify(commit)} is not a full commit id (40 lowercase ` +
        `hex digits): pass the commit a tag points to, never the tag`,
    );
    this.name = new.target.name;
  }
}

/** The mirror folder exists and holds something other than a bare repository. */
export class MirrorFolderError extends InputError {
  constructor(readonly mirrorDir: string) {
    super(`mirror folder ${mirrorDir} exists and is not a bare git repository: remove it or choose another folder`);
    this.name = new.target.name;
  }
}

/** The worktree folder exists and is not a worktree of the mirror: it is never removed on a guess. */
export class WorktreeFolderError extends InputError {
  constructor(
    readonly worktreeDir: string,
    readonly mirrorDir: string,
  ) {
    super(
      `worktree folder ${worktreeDir} exists and is not a worktree of the ` +
        `mirror ${mirrorDir}: remove it or choose another folder`,
    );
    this.name = new.target.name;
  }
}

/** The commit is not in the mirror (not fetched yet, or its tag was deleted and the object pruned). */
export class CommitNotInMirrorError extends InputError {
  constructor(
    readonly commit: string,
    readonly mirrorDir: string,
  ) {
    super(
      `commit ${commit} is not in the mirror ${mirrorDir}: sync the mirror ` +
        `first (the tag may have moved or been deleted upstream)`,
    );
    this.name = new.target.name;
  }
}

/** A git command that failed for a reason qpswatch does not classify (disk full, corrupt repository). */
export class GitCommandError extends Error {
  constructor(
    argv: readonly string[],
    readonly exitCode: number | null,
    tail: readonly string[],
  ) {
    super(redactUrls(`${argv.join(' ')} failed with exit code ${exitCode}: ${tail.at(-1) ?? '(no output)'}`));
    this.name = new.target.name;
    this.argv = argv.map(redactUrls);
    this.tail = tail.map(redactUrls);
  }

  readonly argv: readonly string[];
  readonly tail: readonly string[];
}

/** `git ls-remote` printed a line that is not "<sha>\trefs/tags/<name>". */
export class LsRemoteOutputError extends Error {
  constructor(
    readonly remote: string,
    readonly line: string,
  ) {
    super(
      `git ls-remote ${redactRemoteIn(remote, remote)} printed a line that is ` +
        `not "<commit id><tab>refs/tags/<name>": ` +
        `${JSON.stringify(line.slice(0, 200))}`,
    );
    this.name = new.target.name;
  }
}

/**
 * A folder handed to updateSubmodules that is not a git worktree: git would otherwise walk up into a parent repository.
 */
export class NotAWorktreeError extends Error {
  constructor(readonly worktreeDir: string) {
    super(`${worktreeDir} is not a git worktree (no .git in it): make it with addWorktree first`);
    this.name = new.target.name;
  }
}
