"""Reading documents: text and Markdown split into numbered statements (``statements``),
tables read row by row (``tables``), PDF pages with their page numbers (``pdf``), and the
views that give every statement its file, line, page and section (``views``)."""
