// libpq, PostgreSQL's C client: connections, parameterised queries and COPY, for PostGIS tables.
#include <libpq-fe.h>
