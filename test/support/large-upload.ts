// Sends one large body over node:http and reads the answer as soon as it arrives: a server that
// refuses before reading (503 server_busy) is answered while the upload is still under way, and the
// upload is then abandoned, as a careful client does, instead of pushing the rest of the bytes.
import { request } from 'node:http';

export interface UploadOutcome {
  status: number;
  body: string;
  retryAfter: string | undefined;
}

export function postLarge(url: string, headers: Record<string, string>, body: Buffer): Promise<UploadOutcome> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), retryAfter: res.headers['retry-after'] as string | undefined });
        req.destroy();
      });
      res.on('error', reject);
    });
    req.on('error', (error) => reject(error));
    req.end(body);
  });
}

/** A WAV header over `total - 44` bytes of silence: 16 kHz mono 16-bit PCM, decodable by ffprobe. */
export function silentWav(total: number): Buffer {
  const wav = Buffer.alloc(total);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(total - 8, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(16000, 24);
  wav.writeUInt32LE(32000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(total - 44, 40);
  return wav;
}

/** A multipart/form-data body with text fields and one file, built by hand so it is sent as one buffer. */
export function multipartBody(fields: Record<string, string>, file: { field: string; name: string; type: string; bytes: Buffer }): { contentType: string; body: Buffer } {
  const boundary = `----gw-test-${Date.now()}`;
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(parts.join('') + fileHead), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { contentType: `multipart/form-data; boundary=${boundary}`, body };
}
