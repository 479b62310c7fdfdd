// libpq, PostgreSQL's C client: connections, parameterised queries and COPY, for PostGIS tables. Only the
// declarations: the library is loaded at run time, not linked. Debian keeps the headers in /usr/include/postgresql.
#include <postgresql/libpq-fe.h>
