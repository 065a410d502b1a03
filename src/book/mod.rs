//! Opening books: a PolyGlot `.bin` read into memory ([`polyglot::Book`]) and the move a
//! position's entries give ([`polyglot::Book::pick`]). Pure: the shell reads the file, the
//! session asks the book.

pub mod polyglot;

pub use polyglot::{Book, BookError, Entry};
