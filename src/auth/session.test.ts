import { describe, expect, it } from 'vitest';
import { hashSessionId, Session } from './session.js';

describe('Session', () => {
  it('is not worth storing until its token is read or it is written to', () => {
    const session = new Session();
    expect(session.mustSave).toBe(false);
    session.verifyCsrfToken('x');
    expect(session.mustSave).toBe(false);
    void session.csrfToken;
    expect(session.mustSave).toBe(true);
  });

  it('flash data lives for the next request only', () => {
    const session = new Session();
    session.flash('status', 'Saved.');
    session.ageFlashData(); // next request
    expect(session.get('status')).toBe('Saved.');
    session.ageFlashData(); // the one after
    expect(session.has('status')).toBe(false);
  });

  it('pull reads and forgets', () => {
    const session = new Session().put('a', 1);
    expect(session.pull('a')).toBe(1);
    expect(session.has('a')).toBe(false);
    expect(session.pull('a', 'default')).toBe('default');
  });

  it('regenerate gives a new id and token, keeps data, and discards the stored id', () => {
    const session = new Session().put('a', 1);
    session.storedHash = hashSessionId(session.id);
    const { id, csrfToken } = session;
    session.regenerate();
    expect(session.id).not.toBe(id);
    expect(session.csrfToken).not.toBe(csrfToken);
    expect(session.get('a')).toBe(1);
    expect(session.discarded).toEqual([hashSessionId(id)]);
    expect(session.storedHash).toBeUndefined();
  });

  it('invalidate empties the session and signs it out', () => {
    const session = new Session().put('a', 1);
    session.userId = 7;
    session.storedHash = hashSessionId(session.id);
    session.invalidate();
    expect(session.userId).toBeNull();
    expect(session.has('a')).toBe(false);
    expect(session.discarded).toHaveLength(1);
  });
});
