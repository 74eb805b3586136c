//! Reading one HTTP/1.1 answer off a connection: the status line, the headers, and a body sized
//! by `Content-Length` or sent in chunks.

use std::io::{BufRead, Read, Write};

/// An answer's head, once its body has been read.
#[derive(Clone, Debug, Default)]
pub struct Head {
    /// The status code.
    pub status: u16,
    /// The headers in order, names lower-cased, values trimmed.
    pub headers: Vec<(String, String)>,
    /// The body's bytes (chunks' framing not counted).
    pub body_bytes: usize,
    /// Whether the server keeps the connection open after this answer.
    pub open: bool,
}

impl Head {
    /// The first value of the header `name` (lower-case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads one answer from `reader`, writing its body to `body` (`std::io::sink()` to drop it).
pub fn read_answer(reader: &mut impl BufRead, body: &mut impl Write) -> std::io::Result<Head> {
    let broken = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_owned());
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Err(broken("closed"));
    }
    let status = line
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| broken("no status"))?;
    let mut head = Head {
        status,
        open: true,
        ..Head::default()
    };
    let (mut length, mut chunked) = (0usize, false);
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':').unwrap_or((header, ""));
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim().to_owned());
        match name.as_str() {
            "content-length" => {
                length = value.parse().map_err(|_| broken("content-length"))?;
            }
            "transfer-encoding" if value.to_ascii_lowercase().ends_with("chunked") => {
                chunked = true;
            }
            "connection" if value.eq_ignore_ascii_case("close") => head.open = false,
            _ => {}
        }
        head.headers.push((name, value));
    }
    // These have no body, whatever their Content-Length says.
    if matches!(status, 100..=199 | 204 | 304) {
        return Ok(head);
    }
    if !chunked {
        head.body_bytes = std::io::copy(&mut reader.by_ref().take(length as u64), body)? as usize;
        if head.body_bytes < length {
            return Err(broken("the body broke off"));
        }
        return Ok(head);
    }
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let size = usize::from_str_radix(line.trim(), 16).map_err(|_| broken("chunk size"))?;
        std::io::copy(&mut reader.by_ref().take(size as u64), body)?;
        // The line end after the chunk (after the last, empty one: no trailers expected).
        std::io::copy(&mut reader.by_ref().take(2), &mut std::io::sink())?;
        head.body_bytes += size;
        if size == 0 {
            return Ok(head);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(raw: &str) -> (Head, String) {
        let mut body = Vec::new();
        let head = read_answer(&mut raw.as_bytes(), &mut body).expect("an answer");
        (head, String::from_utf8(body).expect("text"))
    }

    #[test]
    fn a_sized_body_is_read_to_its_length_and_the_headers_keep_their_values_case() {
        let (head, body) = read(
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Security-Policy: script-src 'self'\r\n\r\nhelloNEXT",
        );
        assert_eq!((head.status, head.body_bytes, head.open), (200, 5, true));
        assert_eq!(body, "hello");
        assert_eq!(
            head.header("content-security-policy"),
            Some("script-src 'self'")
        );
    }

    #[test]
    fn chunks_are_joined_without_their_framing() {
        let (head, body) = read(
            "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
        );
        assert_eq!((head.body_bytes, head.open), (5, false));
        assert_eq!(body, "abcde");
    }

    #[test]
    fn a_not_modified_answer_has_no_body_whatever_its_length_says() {
        let (head, body) = read("HTTP/1.1 304 Not Modified\r\ncontent-length: 100\r\n\r\n");
        assert_eq!((head.status, head.body_bytes), (304, 0));
        assert_eq!(body, "");
    }

    #[test]
    fn a_body_shorter_than_its_length_is_an_error() {
        let raw = "HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc";
        assert!(read_answer(&mut raw.as_bytes(), &mut std::io::sink()).is_err());
    }
}
