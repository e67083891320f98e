"""Facets: how many of the chunks a search ranks from hold each value of a field.

fields.py     the fields a request may count, declared once
request.py    the body of POST /api/rag/facets (a search body, fields, limit)
service.py    which chunks count (the searches' own filters and keyword matches), one call
              of api.facets (sql/functions/facets.sql)
response.py   the response, as models
"""
