"""多進程 the parlor on several server processes sharing one PostgreSQL and one Redis
(docs/deploy.md): table leases with fencing (:mod:`.leases`, :mod:`.store`), the bus between the
processes (:mod:`.bus`), take-overs and the tables' traffic (:mod:`.node`), HTTP forwarding
(:mod:`.forward`)."""
